"""Prose of the offline fixture web (tests only): three queries, three explanatory pages each.

A page is a :class:`PageSpec`: a title, a site name and a list of blocks — ``("h2", text)``, ``("p", text)`` or
``("fig", image_key, caption)``. ``{{image_key}}`` inside a paragraph places an inline ``<img>`` there. Image keys
refer to :data:`tests.helpers.fixture_images.IMAGES`.

:func:`render_page` wraps a page in chrome (header logo, nav, cookie banner, aside, footer icon) and
:func:`jina_markdown` converts served HTML the way the Jina Reader API does (for the Jina stub).
"""

from __future__ import annotations

import html as htmlmod
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

from .fixture_images import IMAGES

Block = tuple[str, ...]
#: ``{{image_key}}`` in a paragraph: an inline image.
TOKEN_RE = re.compile(r"\{\{(\w+)\}\}")
_JINA_DROPPED = ["script", "style", "noscript", "header", "nav", "footer", "aside", "form", "button"]


@dataclass(frozen=True)
class PageSpec:
    """One fixture page: served at ``path`` encoded in ``charset`` (declared in the header, else in a meta tag)."""

    path: str
    title: str
    site: str
    blocks: tuple[Block, ...]
    charset: str = "utf-8"
    charset_in_header: bool = True


SOLAR_1 = PageSpec("/solar/how-solar-panels-work.html", "How Solar Panels Work: From Sunlight to Electricity",
                   "SunWise Energy Explained", (
    ("fig", "solar_roof", "A rooftop array of monocrystalline panels facing south."),
    ("p", "A solar panel is a flat package of many small devices called photovoltaic cells. Each cell is a thin "
          "wafer of silicon that has been treated so that light falling on it pushes electric charges around a "
          "circuit. Nothing moves, nothing burns and nothing needs to be refuelled: the panel simply sits in the "
          "sun and produces a direct current as long as light reaches it."),
    ("h2", "Light arrives as packets of energy"),
    ("p", "Sunlight is made of photons, tiny packets of energy. When a photon with enough energy strikes the "
          "silicon, it can knock an electron loose from the atom that was holding it. In ordinary silicon that "
          "freed electron would wander for a moment and then fall back into place, giving its energy away as a "
          "little heat. The trick of a solar cell is to stop that from happening and to send the electron "
          "through a wire instead."),
    ("p", "{{info_icon}} Tip: a panel works on cloudy days too. Diffuse light still carries photons, only fewer "
          "of them, so the output drops to perhaps a quarter or a tenth of the clear-sky value rather than to "
          "zero."),
    ("h2", "A built-in electric field does the sorting"),
    ("fig", "pv_diagram", "Cross-section of a photovoltaic cell: n-type layer on top, p-type layer below."),
    ("p", "A cell is made of two layers of silicon with slightly different impurities. The top layer has extra "
          "electrons and the bottom layer has too few. Where they meet, an electric field forms across the "
          "boundary. When light frees an electron near that boundary, the field pushes it towards the top "
          "layer and pushes the gap it left behind, called a hole, towards the bottom. Metal contacts on both "
          "faces collect the separated charges."),
    ("p", "Connect the two contacts through a lamp or a battery charger and the electrons flow around the "
          "outside circuit to refill the holes. That flow is the electric current. A single cell gives about "
          "half a volt, so a panel wires sixty or more cells in series to reach a useful voltage, and an "
          "installation wires several panels together."),
    ("h2", "How much of the light becomes electricity?"),
    ("p", "Typical rooftop panels convert between eighteen and twenty-three percent of the sunlight that hits "
          "them into electricity. Some photons have too little energy to free an electron and pass through or "
          "become heat; others have more than needed and the surplus is lost as heat as well. Panels are also "
          "less efficient when they are hot, which is why a cold, bright spring day can beat a scorching "
          "summer afternoon."),
))

SOLAR_2 = PageSpec("/solar/inside-a-solar-cell.html", "Inside a Solar Cell: The Photovoltaic Effect Step by Step",
                   "Physics at Home", (
    ("p", "The photovoltaic effect was first observed in 1839 by the nineteen-year-old Edmond Becquerel, who "
          "noticed that light shining on certain electrodes in a liquid produced a small current. It took more "
          "than a century, and the invention of the silicon p-n junction, before the effect could power "
          "anything useful."),
    ("h2", "Doping: making two kinds of silicon"),
    ("p", "Pure silicon has four outer electrons per atom, all tied up in bonds with its neighbours. Add a trace "
          "of phosphorus, which has five, and the spare electron is free to move: this is n-type silicon. Add "
          "boron, which has only three, and each boron atom leaves a missing bond, a hole, which behaves like "
          "a positive charge: this is p-type silicon. {{pn_junction}} The diagram shows the two layers and the "
          "thin depletion zone between them."),
    ("h2", "The junction and the depletion zone"),
    ("p", "When the two kinds touch, electrons near the boundary drift into the p side and fill holes there. "
          "This leaves the n side slightly positive and the p side slightly negative, and the resulting field "
          "soon stops any further drift. The narrow region stripped of free charges is the depletion zone, and "
          "its field is what separates the electrons and holes that light creates."),
    ("fig", "solar_roof_thumb", "The same rooftop array as seen from the street."),
    ("p", "A photon absorbed in or near the depletion zone creates an electron-hole pair. The field sweeps the "
          "electron to the n side and the hole to the p side before they can recombine. Piling up on opposite "
          "faces, they create a voltage, and a load connected across the cell lets them meet again by the long "
          "way round, doing work on the way."),
    ("fig", "electron_flow", "Animation: electrons leave the top contact and return through the back contact."),
    ("h2", "Why panels are dark blue or black"),
    ("p", "A good cell absorbs as much light as possible. An anti-reflection coating and a finely textured "
          "surface of tiny pyramids trap the light, which is why panels look dark. Large solar farms spread "
          "thousands of such panels over open land, as in the aerial photograph below. {{solar_farm}}"),
))

SOLAR_3 = PageSpec("/solar/inverters-and-the-grid.html", "From Panel to Plug: Inverters, Batteries and the Grid",
                   "Home Energy Guide", (
    ("fig", "inverter", "A string inverter mounted in a garage."),
    ("p", "Solar panels produce direct current, which flows in one direction only. Homes and the electricity "
          "grid run on alternating current, which reverses direction fifty or sixty times a second. The box "
          "that bridges the two is the inverter, and it is the most important component of an installation "
          "after the panels themselves."),
    ("h2", "What the inverter does"),
    ("p", "The inverter switches the direct current on and off very rapidly with transistors and smooths the "
          "result into a clean sine wave that matches the voltage and frequency of the grid. It also tracks the "
          "maximum power point: it keeps adjusting the load on the panels so they deliver the most power the "
          "current light and temperature allow. {{inverter}} Most inverters show their output on a small "
          "display like the one pictured."),
    ("fig", "grid_diagram", "Schematic: panels, inverter, consumer unit, meter and grid connection."),
    ("h2", "Meters, batteries and exporting power"),
    ("p", "During the day a house often produces more electricity than it uses. The surplus can charge a home "
          "battery for the evening or flow out to the grid through a bidirectional meter, which counts energy "
          "in both directions. {{net_meter}} Many suppliers pay a small amount for every kilowatt-hour that is "
          "exported."),
    ("p", "Batteries store the energy chemically and release it as direct current, so a battery system needs "
          "its own inverter or a hybrid inverter that handles panels and battery together. A typical home "
          "battery stores ten to fifteen kilowatt-hours, enough for the evening peak of an ordinary household."),
    ("fig", "battery", "A wall-mounted home battery next to its hybrid inverter."),
    ("h2", "Safety when the grid goes down"),
    ("p", "When there is a power cut, a grid-connected inverter must stop exporting immediately so that line "
          "workers repairing the network are not put in danger. This is called anti-islanding protection. "
          "Systems with a battery and a special backup circuit can keep a few essential sockets running while "
          "staying isolated from the grid."),
))

LEAVES_1 = PageSpec("/leaves/why-leaves-change-colour.html", "Why Do Leaves Change Colour in Autumn?",
                    "The Nature Notebook", (
    ("fig", "maple", "A sugar maple in full autumn colour."),
    ("p", "All summer long, leaves are green because they are packed with chlorophyll, the pigment that "
          "captures sunlight for photosynthesis. Chlorophyll absorbs red and blue light strongly and reflects "
          "green, so that is the colour we see. It is also fragile: sunlight breaks it down constantly, and "
          "the tree has to keep making more to replace it."),
    ("h2", "Shorter days switch off the green"),
    ("p", "As autumn approaches, the nights grow longer and the temperature drops. Deciduous trees respond by "
          "preparing to shed their leaves. A layer of cells called the abscission layer forms at the base of "
          "each leaf stalk and slowly closes the veins. Cut off from water and nutrients, the leaf stops "
          "making chlorophyll, and the green that remains fades within a few weeks."),
    ("fig", "chlorophyll", "Model of a chlorophyll molecule with its magnesium atom at the centre."),
    ("h2", "Yellow and orange were there all along"),
    ("p", "Leaves also contain carotenoids, the same pigments that colour carrots and egg yolks. They help "
          "with photosynthesis and protect the leaf from too much light. In summer their yellow and orange "
          "are hidden by the far more abundant chlorophyll. Once the chlorophyll is gone, the carotenoids "
          "are revealed, which is why birches and poplars turn golden. {{maple}} The same maple a week later "
          "shows how quickly the change can happen."),
    ("p", "{{warning_icon}} Note: a few species, such as some oaks and beeches, keep their dead brown leaves "
          "until spring. The brown comes from tannins left behind once every other pigment has broken down."),
    ("h2", "Red is made fresh in autumn"),
    ("p", "The brilliant reds and purples of maples and sumacs come from anthocyanins. Unlike carotenoids, "
          "these are not present in summer: the leaf makes them in autumn from sugars trapped by the closing "
          "veins. Scientists think they act as a sunscreen, protecting the leaf while the tree withdraws "
          "valuable nitrogen and phosphorus from it before it falls."),
))

LEAVES_2 = PageSpec("/leaves/leaf-pigments.html", "Leaf Pigments: Chlorophyll, Carotenoids and Anthocyanins",
                    "Botany Basics", (
    ("p", "Plant scientists at a research station near Qu\u00e9bec have measured leaf pigments in sugar maples "
          "for decades. Their records show that the timing of autumn colour depends on day length, while its "
          "brightness depends mostly on the weather of the previous weeks."),
    ("fig", "pigment_chart", "Chart: amounts of chlorophyll, carotenoids and anthocyanins from August to November."),
    ("h2", "Three families of pigments"),
    ("p", "Chlorophylls a and b make leaves green and do the main work of photosynthesis. Carotenoids, such as "
          "beta-carotene and lutein, absorb blue-green light and pass its energy on to chlorophyll; they give "
          "yellow and orange. Anthocyanins are water-soluble pigments stored in the cell sap; depending on the "
          "acidity of the sap they look red, purple or even blue. {{carotenoids}}"),
    ("h2", "Breaking down and building up"),
    ("p", "In autumn the tree dismantles its chlorophyll to recover the nitrogen it contains, and that is the "
          "main reason the green disappears. Carotenoids break down more slowly, so they remain visible for "
          "weeks. Anthocyanins, by contrast, are built from scratch: sugars that can no longer leave the leaf "
          "are turned into red pigment, especially on sunny days. {{anthocyanin_broken}}"),
    ("fig", "maple_medium", "Maple leaves at the height of the season."),
    ("p", "Because anthocyanins need light and sugar, the side of a tree that faces the sun often turns red "
          "while the shaded side stays yellow. Leaves shaded by other leaves may skip the red stage entirely. "
          "This patchwork of colours on a single tree is one of the clearest demonstrations that red pigment "
          "is made on demand."),
    ("h2", "Why it matters"),
    ("p", "Recovering nutrients before the leaves fall lets a tree start the next spring with reserves in its "
          "bark and roots. The pigments are a visible side effect of that thrifty process, and studying them "
          "helps scientists follow how forests respond to changing climates."),
), charset="iso-8859-1")

LEAVES_3 = PageSpec("/leaves/weather-and-autumn-colour.html", "How Weather Shapes Autumn Colour",
                    "Forest Watch", (
    ("p", "Some years the hills blaze with scarlet and gold; other years the leaves turn a dull brown and drop "
          "quickly. The difference is mostly the weather of late summer and early autumn, which controls how "
          "much sugar the leaves make and how long they stay on the trees."),
    ("fig", "sunny_days", "Sunny days and cool nights: ideal conditions for red leaves."),
    ("h2", "Sunny days, cool nights"),
    ("p", "The best displays follow a run of warm, sunny days and cool but not freezing nights. During the day "
          "the leaves make plenty of sugar; at night the cool temperatures and closing veins keep the sugar in "
          "the leaf, where it becomes red anthocyanin. A network camera in our test plot "
          "{{private_camera}} records the change every morning."),
    ("h2", "Frost, drought and rain"),
    ("p", "An early hard frost kills the leaf cells before the pigments develop, and the leaves turn brown "
          "overnight. {{frost_leaf}} A summer drought can make trees drop their leaves early, before the "
          "colours peak. A wet, cloudy autumn reduces the sugar supply, so reds are muted, while heavy wind "
          "and rain can strip the trees before anyone has a chance to admire them. {{rain_truncated}}"),
    ("h2", "Predicting a good season"),
    ("p", "Forecasters look at rainfall over the summer, the first frost date and the expected number of "
          "sunny days in September and October. A moist growing season followed by a dry, bright and cool "
          "autumn gives the most vivid colours. No forecast is perfect, but the pattern has been confirmed "
          "by decades of observations from volunteer networks."),
    ("p", "Climate change is shifting these patterns. Warmer autumns delay the colour change by days or even "
          "weeks in some regions, and more frequent droughts can cut the season short. Long-term records "
          "collected by volunteers are helping researchers measure these trends."),
))

BIKES_1 = PageSpec("/bikes/how-bicycle-gears-work.html", "How Bicycle Gears Make Pedalling Easier",
                   "Cycle Mechanics", (
    ("fig", "drivetrain", "A derailleur drivetrain: chainrings, chain, cassette and rear derailleur."),
    ("p", "Gears do not give a cyclist extra energy. What they do is change how the effort is delivered: how "
          "hard each pedal stroke has to push, and how far the bicycle travels for each turn of the cranks. "
          "By choosing the right gear, a rider can keep pedalling at a comfortable pace whether climbing a "
          "steep hill or cruising on the flat."),
    ("h2", "Chainrings and sprockets"),
    ("p", "The chain connects a toothed chainring at the pedals to a sprocket on the rear wheel. If the "
          "chainring has forty teeth and the sprocket has twenty, one turn of the pedals pulls forty links of "
          "chain, which turns the rear wheel twice. Swap to a sprocket with forty teeth and the wheel turns "
          "only once per pedal stroke. {{cassette}} The cluster of sprockets on the rear wheel is called a "
          "cassette."),
    ("fig", "cassette_thumb", "Close-up of an eleven-speed cassette."),
    ("h2", "Trading force for distance"),
    ("p", "Climbing a hill requires a certain amount of work to lift the rider and bike. In a low gear, with a "
          "small chainring and a big sprocket, each pedal turn moves the bike a short distance, so the force "
          "needed at the pedals is small. The rider pedals more times to cover the same ground, but each "
          "stroke is easy. A high gear does the opposite: big force, big distance, ideal for speed on the flat."),
    ("p", "{{info_icon}} Tip: shift before the hill, not halfway up it. Shifting under heavy load is hard on the "
          "chain and can make it skip."),
    ("h2", "Why cadence matters"),
    ("p", "Muscles work best within a range of speeds. Most riders are comfortable at sixty to ninety pedal "
          "revolutions per minute. Gears let the rider keep that cadence while the road speed changes, much "
          "as a car gearbox keeps an engine within its best range of revolutions."),
    ("p", "A single-speed bicycle has one fixed ratio, chosen as a compromise: too hard on steep hills and too "
          "easy on fast descents. Hub gears hide a small set of planetary gears inside the rear hub, protected "
          "from dirt, while derailleur systems move the chain between exposed sprockets and offer more, closer "
          "spaced ratios. Both do the same job of matching the rider's effort to the road."),
))

BIKES_2 = PageSpec("/bikes/gear-ratios-explained.html", "Gear Ratios Explained for Cyclists", "Ride Smarter", (
    ("p", "A gear ratio is the number of teeth on the front chainring divided by the number of teeth on the rear "
          "sprocket. A 50-tooth chainring with a 25-tooth sprocket gives a ratio of two: the rear wheel turns "
          "twice for every turn of the pedals."),
    ("fig", "chainring", "Counting the teeth on a 50-tooth chainring."),
    ("h2", "Development: distance per pedal stroke"),
    ("p", "Multiply the gear ratio by the circumference of the wheel and you get the development, the distance "
          "the bicycle travels for one turn of the pedals. With a ratio of two and a wheel about 2.1 metres "
          "around, each pedal stroke moves the bike 4.2 metres. In a low climbing gear with a ratio of 0.8, the "
          "same stroke moves it only 1.7 metres, but needs far less force."),
    ("fig", "ratio_chart", "Chart of development for each chainring and sprocket combination."),
    ("h2", "Measuring effort"),
    ("p", "Power is force multiplied by speed. On a climb, the power a rider can sustain is limited, so to go "
          "uphill at all the force per pedal stroke must fall, which means a lower gear and slower road speed. "
          "Heart-rate and power data from rides show this clearly. {{cadence_graph}} Riders who shift early "
          "keep their effort steady."),
    ("p", "Modern bikes offer wide ranges. A road bike might span ratios from about 0.9 to 4.5, while a "
          "mountain bike with a single chainring and a very large rear sprocket can go lower than 0.6 for "
          "steep, loose trails. Overlapping gears give small steps so the rider can fine-tune the effort."),
    ("h2", "Cross-chaining"),
    ("p", "Using the largest chainring with the largest sprocket, or the smallest with the smallest, bends the "
          "chain sideways. It wears the parts faster and wastes a little energy. The same ratio is usually "
          "available in a straighter combination, so it is worth learning which gears overlap."),
    ("p", "Some riders prefer to think in gear inches, an old unit from the days of penny-farthings: the ratio "
          "multiplied by the wheel diameter in inches gives the size of the front wheel that would travel the "
          "same distance per pedal turn. Whatever the unit, the comparison between gears is what matters, and "
          "an online calculator can list every combination of a bike in a few seconds."),
))

BIKES_3 = PageSpec("/bikes/shifting-tips.html", "Shifting Tips: Getting the Most from Your Gears",
                   "Commuter Cycling", (
    ("p", "Knowing how gears work is one thing; using them well is another. Good shifting keeps your legs "
          "fresh, your drivetrain quiet and your chain on the sprockets \u2014 and it costs nothing to learn."),
    ("fig", "rider_hill", "A commuter climbing a hill in a low gear."),
    ("h2", "Anticipate the terrain"),
    ("p", "Look ahead. Change to an easier gear just before a climb, a traffic light or a sharp corner, while "
          "you can still pedal lightly. Easing the pressure on the pedals for half a stroke while the chain "
          "moves makes every shift smoother. At a stop, being in a low gear makes starting again much easier."),
    ("fig", "shifter", "Handlebar shifters: the right lever moves the rear derailleur."),
    ("h2", "Left hand big changes, right hand fine tuning"),
    ("p", "On most bikes the left shifter moves the chain between the chainrings and makes a big change, while "
          "the right shifter moves it across the cassette in small steps. Use the front for changes of "
          "terrain and the rear for small adjustments, and you will rarely need to hunt for the right gear."),
    ("fig", "drivetrain_side", "The drivetrain from the side, chain on the middle sprocket."),
    ("h2", "Keep it clean"),
    ("p", "A clean, lubricated chain shifts crisply and lasts longer. Wipe it after wet rides, lubricate it "
          "sparingly, and have the gear cables checked when shifts become slow or noisy. A worn chain stretches "
          "and wears the sprockets too, so replacing it in time saves money on the whole drivetrain."),
    ("p", "Electronic shifting systems now move the derailleurs with small motors at the press of a button. "
          "They shift precisely every time, but the principle is unchanged: a derailleur pushes the chain "
          "sideways onto a different sprocket, and the ratio of teeth decides how hard you push."),
), charset="windows-1252", charset_in_header=False)

#: Every fixture page by path.
PAGES: dict[str, PageSpec] = {p.path: p for p in (SOLAR_1, SOLAR_2, SOLAR_3, LEAVES_1, LEAVES_2, LEAVES_3,
                                                  BIKES_1, BIKES_2, BIKES_3)}


# --- rendering ----------------------------------------------------------------------------------------------------

def _img_tag(key: str) -> str:
    spec = IMAGES[key]
    w, h = spec.size if spec.size != (0, 0) else (640, 480)
    return (f'<img src="{htmlmod.escape(spec.path)}" alt="{htmlmod.escape(spec.alt)}" width="{w}" height="{h}" '
            'loading="lazy">')


def render_page(spec: PageSpec, further: PageSpec | None = None) -> str:
    """The HTML of a fixture page: chrome and boilerplate around the article blocks, and a link to ``further``."""
    body = [f"<h1>{htmlmod.escape(spec.title)}</h1>"]
    for block in spec.blocks:
        if block[0] == "fig":
            body.append(f"<figure>{_img_tag(block[1])}<figcaption>{htmlmod.escape(block[2])}</figcaption></figure>")
        elif block[0] == "p":
            body.append("<p>" + TOKEN_RE.sub(lambda m: _img_tag(m.group(1)), htmlmod.escape(block[1])) + "</p>")
        else:
            body.append(f"<{block[0]}>{htmlmod.escape(block[1])}</{block[0]}>")
    if further is not None:
        body.append(f'<p>Further reading: <a href="{further.path}">{htmlmod.escape(further.title)}</a>.</p>')
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="{spec.charset}"><title>{htmlmod.escape(spec.title)} | {spec.site}</title>
<style>body{{font-family:sans-serif}} .cookie{{position:fixed;bottom:0}}</style>
<script>window.dataLayer = window.dataLayer || []; function track(e) {{ dataLayer.push(e); }}</script></head>
<body>
<header><a href="/"><img src="{IMAGES['site_logo'].path}" alt="{spec.site} logo" width="32" height="32"></a>
<nav><a href="/">Home</a> | <a href="/topics/">Topics</a> | <a href="/about/">About us</a></nav></header>
<div class="cookie"><p>We use cookies to improve your experience.</p><button>Accept all cookies</button></div>
<main><article>
{chr(10).join(body)}
</article></main>
<aside><h3>Popular this week</h3><ul><li><a href="/topics/">Ten fun science experiments</a></li></ul></aside>
<footer><p><img src="{IMAGES['share_icon'].path}" alt="Share" width="16" height="16"> Share on Facebook</p>
<p>&copy; 2024 {spec.site}. All rights reserved. <a href="/privacy">Privacy</a></p></footer>
</body></html>
"""


def jina_markdown(html: str, url: str) -> tuple[str, str]:
    """``(title, content)`` the way Jina Reader gives them: images ``![Image N: alt](absolute url)``, links
    ``[text](absolute url)``, page chrome dropped."""
    from bs4 import BeautifulSoup
    from markdownify import MarkdownConverter

    soup = BeautifulSoup(html, "html.parser")
    title = " ".join(soup.title.get_text().split()) if soup.title else ""
    for tag in soup.find_all(_JINA_DROPPED):
        tag.decompose()
    number = 0
    for img in soup.find_all("img"):
        src = urljoin(url, img.get("src") or "")
        if not src.startswith(("http://", "https://")):
            img.decompose()
            continue
        number += 1
        img["src"], img["data-n"] = src, str(number)
    for a in soup.find_all("a", href=True):
        a["href"] = urljoin(url, a["href"])

    class _Jina(MarkdownConverter):
        def convert_img(self, el: Any, text: str, parent_tags: Any) -> str:  # noqa: D102
            return f"![Image {el['data-n']}: {el.get('alt') or ''}]({el['src']})"

    content = _Jina(heading_style="underlined", bullets="*").convert_soup(soup.body or soup)
    return title, re.sub(r"\n{3,}", "\n\n", content).strip()
