#!/usr/bin/env python3
"""Makes the theme's world basemap, templates/map/world.txt, once: the outlines of the world's
countries from Natural Earth (1:110m, in the public domain), as the `naturalearth_lowres` data set
that geopandas 0.14 wheels carry.

    pip install 'geopandas==0.14.*'
    python3 scripts/make-basemap.py            # writes templates/map/world.txt

The file is text, small and diffable: one ring (an outline or a hole) per line, its points as
longitude and latitude in hundredths of a degree, the first point whole, each next one as its
difference from the one before. Folio reads it at build time (Site/WorldBasemap.swift), projects
it and draws the SVG the Map pages show. Natural Earth already cuts outlines at the antimeridian
(Russia, Fiji), so no ring crosses it.
"""

import sys
import warnings
from pathlib import Path

import geopandas

OUTPUT = Path(__file__).resolve().parents[1] / "templates" / "map" / "world.txt"


def rings(geometry):
    """Every ring of a polygon or multipolygon: outlines and holes."""
    polygons = geometry.geoms if geometry.geom_type == "MultiPolygon" else [geometry]
    for polygon in polygons:
        yield polygon.exterior.coords
        for hole in polygon.interiors:
            yield hole.coords


def encoded(ring):
    """A ring as whole hundredths of a degree, differences after the first point; repeated points dropped."""
    points = []
    for lon, lat in ring:
        point = (round(lon * 100), round(lat * 100))
        if not points or points[-1] != point:
            points.append(point)
    if len(points) > 1 and points[0] == points[-1]:
        points.pop()  # the closing point: SVG closes the path itself
    if len(points) < 3:
        return None
    numbers = [points[0][0], points[0][1]]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        numbers += [x1 - x0, y1 - y0]
    return " ".join(str(n) for n in numbers)


def main():
    warnings.simplefilter("ignore", FutureWarning)  # geopandas 0.14 says its datasets module will go in 1.0
    path = geopandas.datasets.get_path("naturalearth_lowres")
    world = geopandas.read_file(path).sort_values("name")
    lines = [
        "# Natural Earth 1:110m countries (public domain, naturalearthdata.com), from geopandas 0.14's naturalearth_lowres.",
        "# Made by scripts/make-basemap.py. One ring per line: longitude latitude in hundredths of a degree,",
        "# the first point whole, then each point's difference from the one before.",
    ]
    for geometry in world.geometry:
        for ring in rings(geometry):
            line = encoded(ring)
            if line:
                lines.append(line)
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text("\n".join(lines) + "\n")
    print(f"{OUTPUT}: {len(lines) - 3} rings, {OUTPUT.stat().st_size} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
