"""``m2rag-bench leaderboard build|serve``."""

from __future__ import annotations

import functools
import http.server
from pathlib import Path

import click


@click.group("leaderboard")
def leaderboard() -> None:
    """Build and preview the static leaderboard site."""


@leaderboard.command("build")
@click.option("--runs", "runs", required=True, multiple=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="an evaluated run directory; give --runs once per run (or several after one --runs)")
@click.argument("more_runs", nargs=-1, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path), help="site folder to write")
def build(runs: tuple[Path, ...], more_runs: tuple[Path, ...], out: Path) -> None:
    """Write the site for evaluated run directories: `--runs DIR [DIR ...] --out SITE`."""
    from .site import build_site

    try:
        report = build_site([*runs, *more_runs], out)
    except (FileNotFoundError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)
    click.echo(f"wrote {len(report.runs)} runs, {report.samples} sample pages, {report.images} image files "
               f"({report.image_refs} references) to {out}; open {report.index}")


@leaderboard.command("serve")
@click.argument("site", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--port", default=8000, show_default=True, type=int)
def serve(site: Path, port: int) -> None:
    """Serve a built site on http://127.0.0.1:PORT (the site also opens straight from disk)."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as httpd:
        click.echo(f"serving {site} at http://127.0.0.1:{httpd.server_address[1]}/ (Ctrl-C to stop)")
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass
