"""The static leaderboard site: ``build_site(run_dirs, out)`` and the ``m2rag-bench leaderboard`` commands."""

from .site import SiteReport, build_site

__all__ = ["SiteReport", "build_site"]
