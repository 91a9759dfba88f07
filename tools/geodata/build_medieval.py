"""Build geodata/medieval-xiii.geojson (Medieval: The XIIIth Century in Europe) from Natural Earth.

Usage:  npm ci --prefix tools/geodata  &&  python tools/geodata/build_medieval.py [--out PATH]

The game's 19 map cards, their provinces and naval areas come from
`shared/reference/medieval-data.md` section 1 (copied below, so the build needs only the npm
package).  Method (see geodata/README.md, "Medieval: the XIIIth century"):
1. Decode the 1:50m countries TopoJSON (the 1:10m detail is lost at this scale anyway), keep the
   land inside the union of the card boxes, drop islands below MIN_ISLAND_DEG2.
2. Cut the plane into *faces* by the card boxes; a face knows the cards whose box covers it.
   Boxes overlap at the seams, so a face may belong to two or four cards.
3. Land: inside each zone (a few hand-drawn ones where water is too narrow for nearest-seed to
   respect it, e.g. the Bosporus) and each face, every landmass is split by the Voronoi cells of
   the researched centres it holds, of provinces whose card covers the face; a landmass holding
   no centre joins the nearest such centre.  So every province stays inside its card's box,
   except the islands a zone gives away explicitly (the Balearics, Corsica and Sardinia, Rhodes).
4. Water: the same with the naval areas' sea points; water with no naval area of its card left
   undrawn (lakes, the Red Sea), and a sea's pieces cut off from its sea points left undrawn.
5. One exact coverage, shared borders simplified as lines, long edges segmentized, outer rings
   clockwise (plotly), coordinates rounded.  Card rectangles are added as kind "card".
Deterministic: same inputs, same bytes.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, NamedTuple

import shapely
from shapely.geometry import LineString, Point, Polygon, box, mapping

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (  # noqa: E402  (the shared helpers live beside this script)
    Coord,
    build_main,
    decode_topojson,
    exact_coverage,
    finish_coverage,
    label_point,
    polygons_of,
    rounded,
    voronoi_assign,
)

ROOT = Path(__file__).resolve().parents[2]
SOURCE = Path(__file__).resolve().parent / "node_modules" / "world-atlas" / "countries-50m.json"
OUT = ROOT / "geodata" / "medieval-xiii.geojson"

MIN_ISLAND_DEG2 = 0.004  # islands smaller than ~35 km² are dropped (Malta, 0.028 deg², stays)
SIMPLIFY_DEG = 0.03  # coverage simplification tolerance (~3 km)
SEGMENT_DEG = 0.5  # longest straight edge kept
DECIMALS = 3  # ~100 m
SLIVER_DEG2 = 1e-4
CITY_DISC_DEG = 0.04  # a town's province always holds this disc around it (> SIMPLIFY_DEG)
WHOLE_ISLAND_DEG2 = 5.0  # islands up to this size (Sicily 2.6 deg²) are never cut by a card edge
STRAIT_HALF_WIDTH_DEG = 0.012  # the Straits are kept open at least 2.4 km wide
LAGOON_DEG2 = 0.1  # enclosed water below this joins the land around it  # unowned faces below this join a neighbour (numerical slivers)
ENVELOPE = (-20.0, 15.0, 70.0, 70.0)  # Voronoi cells reach this far
REFERENCE = "shared/reference/medieval-data.md"


class Card(NamedTuple):
    """A map card: its lon/lat box (§1.2 of the reference), start flag and region."""

    box: tuple[float, float, float, float]  # lon_min, lat_min, lon_max, lat_max
    start: bool
    region: str
    grid: tuple[float, float, float, float]  # x0, y0, x1, y1 on the table (card widths, rows; y grows south)


# §1.2 "Proposed grid" of the reference (boxes and grid places are its [P] proposals).
CARDS: dict[str, Card] = {
    "1A": Card((-11.0, 47.0, 1.5, 59.0), False, "British Isles, Brittany-Normandy", (-0.5, 0, 0.5, 1)),
    "1B": Card((-1.5, 48.0, 11.0, 61.0), True, "SE England, NE France/Flanders, Low Countries-Rhineland-Westphalia, Jutland, SW Norway, North Sea", (0.5, 0, 1.5, 1)),
    "1C": Card((10.0, 50.0, 22.0, 62.0), False, "Zealand-Scania, E Norway, Sweden, Brandenburg-Pomerania, Greater Poland, Prussia, S Baltic", (1.5, 0, 2.5, 1)),
    "1D": Card((21.0, 50.0, 33.0, 61.0), True, "Masovia, Lithuania, Livonia, Novgorod-Pskov-Polotsk-Smolensk, Gulfs of Riga and Finland", (2.5, 0, 3.5, 1)),
    "1E": Card((32.0, 49.5, 45.0, 60.0), False, "Vladimir-Suzdal, Moscow, Ryazan, Chernigov, N Polovtsian steppe", (3.5, 0, 4.5, 1)),
    "1F": Card((44.0, 49.5, 58.0, 60.0), False, "Nizhny Novgorod, Volga Bulgaria", (4.5, 0, 5.5, 1)),
    "2A": Card((-10.0, 39.5, 3.0, 48.0), True, "León-Castile, Navarre, Aragon-Catalonia, N Portugal; Aquitaine-Toulouse; Bay of Biscay", (0, 1, 1, 2)),
    "2B": Card((3.0, 43.0, 14.0, 49.0), True, "Champagne-Burgundy-Provence, Swabia-Switzerland, Lombardy-Tuscany, Venice; Gulf of Lion and N Adriatic", (1, 1, 2, 2)),
    "2C": Card((13.5, 42.5, 27.5, 50.5), True, "Austria-Bohemia, Istria, Hungary-Croatia, Lesser Poland, Galicia-Kiev, Serbia, Vidin/W Bulgaria", (2, 1, 3, 2)),
    "2D": Card((27.0, 42.0, 42.0, 49.0), False, "Dobruja-E Bulgaria, Moldavia-Pontic steppe, Crimea, Black Sea; Caucasus art", (3, 1, 4, 2)),
    "2F": Card((41.0, 40.5, 56.0, 50.0), False, "Caucasia (Georgia), lower Volga-Caspian steppe, N Caspian", (4, 1, 5, 2)),
    "3A": Card((-10.0, 30.0, 4.0, 39.5), True, "Andalusia-Murcia, Balearics, S Portugal, Strait, Morocco", (0, 2, 1, 3)),
    "3B": Card((4.0, 36.3, 16.0, 43.0), False, "Corsica-Sardinia, Papal States, Naples-Sicily, Algeria-Tunis; Tyrrhenian", (1, 2, 2, 3)),
    "3C": Card((15.0, 35.8, 27.0, 43.0), False, "Apulia-Calabria, Epirus, Macedonia-Greece-Morea, S Serbia, SW Bulgaria, Aegean islands", (2, 2, 3, 3)),
    "3D": Card((26.0, 36.0, 42.0, 42.0), True, "Thrace-Constantinople, Nicaea, Rum (Konya), Trebizond, Cilicia, Antioch, Rhodes; S Black Sea and E Aegean", (3, 2, 4, 3)),
    "3F": Card((40.0, 31.0, 56.0, 41.5), False, "Armenia-Azerbaijan, Erzurum/E Anatolia, Upper Mesopotamia-Baghdad", (4, 2, 5, 3.5)),
    "4B": Card((5.0, 29.0, 16.0, 36.3), False, "S Tunisia-Tripolitania, Malta; central Mediterranean", (1, 3, 2, 4)),
    "4C": Card((16.0, 28.0, 29.0, 35.8), False, "Crete, Cyrenaica-Western Desert; Libyan Sea", (2, 3, 3, 4)),
    "4D": Card((29.0, 28.0, 40.0, 36.0), True, "Egypt (Delta-Cairo), Palestine-Acre-Jerusalem, Damascus, Cyprus; Levantine Sea", (3, 3, 4, 4)),
}


class Area(NamedTuple):
    """A province (land), a naval area (sea) or an off-power land (context) of one card."""

    card: str
    ref: str  # how the reference writes it: "FRA-2A", "LAT-3D-Thrace", "2B-Lion"
    name: str
    seeds: list[Coord]  # the first is the principal town (land) or the sea's middle (sea)
    town: str  # the principal town's name ("" for seas and context)
    note: str  # what the centres are (provenance)


# Provinces of §1.3, in its order per card; id = ASCII snake_case of "<power> <card>" as the
# reference writes each province (e.g. "FRA-2A" -> fra_2a, "LAT Thrace" on 3D -> lat_3d_thrace).
PROVINCES: dict[str, Area] = {
    # 1A
    "eng_1a": Area("1A", "ENG-1A", "England (West and North, Wales)",
                   [(-2.59, 51.45), (-2.89, 53.19), (-2.93, 54.89), (-3.53, 50.72), (-2.80, 54.05),
                    (-3.18, 51.48), (-4.27, 53.14), (-1.57, 54.78), (-2.0, 52.5), (-4.0, 50.5)],
                   "Bristol", "Bristol, Chester, Carlisle, Exeter, Lancaster, Cardiff, Caernarfon, Durham"),
    "fra_1a": Area("1A", "FRA-1A", "France (Normandy, Maine and Brittany)",
                   [(-0.37, 49.18), (1.10, 49.44), (-1.68, 48.11), (-1.55, 47.22), (-4.49, 48.39),
                    (0.20, 48.00), (-0.55, 47.47), (-2.76, 47.66), (-1.6, 48.6)],
                   "Caen", "Caen, Rouen, Rennes, Nantes, Brest, Le Mans, Angers, Vannes"),
    # 1B
    "eng_1b": Area("1B", "ENG-1B", "England (South-East)",
                   [(-0.13, 51.51), (1.08, 51.28), (1.30, 52.63), (-0.54, 53.23), (-1.08, 53.96),
                    (0.12, 52.20), (-1.31, 51.06), (-1.26, 51.75)],
                   "London", "London, Canterbury, Norwich, Lincoln, York, Cambridge, Winchester, Oxford"),
    "fra_1b": Area("1B", "FRA-1B", "France (Île-de-France, Picardy and Flanders)",
                   [(2.35, 48.86), (4.03, 49.26), (2.30, 49.89), (2.78, 50.29), (3.06, 50.63),
                    (3.22, 51.21), (3.72, 51.05), (3.62, 49.56), (1.5, 48.5)],
                   "Paris", "Paris, Reims, Amiens, Arras, Lille, Bruges, Ghent, Laon"),
    "den_1b": Area("1B", "DEN-1B", "Denmark (Jutland)",
                   [(8.76, 55.33), (10.20, 56.16), (9.40, 56.45), (9.92, 57.05), (9.57, 54.52),
                    (8.6, 56.4), (10.39, 55.40)],
                   "Ribe", "Ribe, Aarhus, Viborg, Aalborg, Schleswig, Odense (Funen)"),
    "hre_1b": Area("1B", "HRE-1B", "Holy Roman Empire (Low Countries, Rhineland, Westphalia)",
                   [(6.96, 50.94), (6.08, 50.78), (5.12, 52.09), (7.63, 51.96), (8.80, 53.08),
                    (9.99, 53.55), (6.64, 49.75), (8.27, 50.00), (8.68, 50.11), (4.35, 50.85),
                    (5.57, 50.63), (9.50, 51.30), (6.18, 49.12), (10.0, 49.3), (7.0, 53.3)],
                   "Cologne", "Cologne, Aachen, Utrecht, Münster, Bremen, Hamburg, Trier, Mainz, Frankfurt, "
                   "Brussels, Liège, Kassel, Metz"),
    "nor_1b": Area("1B", "NOR-1B", "Norway (West)",
                   [(5.32, 60.39), (5.73, 58.97), (8.00, 58.15), (-1.15, 60.15), (7.0, 59.8)],
                   "Bergen", "Bergen, Stavanger, Kristiansand; Shetland was Norwegian"),
    # 1C
    "den_1c": Area("1C", "DEN-1C", "Denmark (Zealand and Scania)",
                   [(12.08, 55.64), (12.57, 55.68), (13.19, 55.70), (13.00, 55.60), (12.70, 56.05),
                    (14.15, 56.03), (14.9, 55.1)],
                   "Roskilde", "Roskilde, Copenhagen, Lund, Malmö, Helsingborg, Kristianstad, Bornholm"),
    "hre_1c": Area("1C", "HRE-1C", "Holy Roman Empire (Saxony, Brandenburg, Pomerania)",
                   [(11.63, 52.13), (10.69, 53.87), (12.56, 52.41), (13.40, 52.52), (14.55, 53.43),
                    (11.41, 53.63), (12.10, 54.09), (13.47, 51.16), (12.37, 51.34), (11.03, 50.98),
                    (13.4, 54.4)],
                   "Magdeburg", "Magdeburg, Lübeck, Brandenburg, Berlin, Stettin, Schwerin, Rostock, Meissen, "
                   "Leipzig, Erfurt, Rügen"),
    "nor_1c": Area("1C", "NOR-1C", "Norway (East and Bohuslän)",
                   [(10.75, 59.91), (10.41, 59.27), (11.07, 60.79), (11.97, 57.87), (11.3, 59.0)],
                   "Oslo", "Oslo, Tønsberg, Hamar, Kungälv (Bohuslän was Norwegian)"),
    "pol_1c": Area("1C", "POL-1C", "Poland (Greater Poland, Silesia, Pomerelia)",
                   [(16.93, 52.41), (17.60, 52.54), (17.03, 51.11), (18.09, 51.76), (18.65, 54.35),
                    (19.70, 52.55), (17.93, 50.67), (15.5, 51.5), (18.0, 53.2)],
                   "Poznań", "Poznań, Gniezno, Wrocław, Kalisz, Gdańsk, Płock, Opole"),
    "swe_1c": Area("1C", "SWE-1C", "Sweden",
                   [(17.64, 59.86), (18.07, 59.33), (15.62, 58.41), (13.44, 58.39), (16.36, 56.66),
                    (14.16, 57.78), (18.29, 57.64), (16.54, 59.61), (17.14, 60.67), (15.63, 60.60),
                    (13.50, 59.38), (20.0, 60.2), (16.5, 61.7), (13.5, 61.5)],
                   "Uppsala", "Uppsala, Stockholm, Linköping, Skara, Kalmar, Jönköping, Visby, Västerås, Gävle, "
                   "Falun, Karlstad, Åland"),
    "pru_1c": Area("1C", "PRU-1C", "Prussia",
                   [(20.10, 54.50), (19.40, 54.16), (20.51, 54.71), (19.30, 53.70), (21.0, 53.8),
                    (21.5, 54.3)],
                   "Balga", "Balga (Warmia), Elbing, Sambia, Pomesania, Galindia, Nadruvia"),
    # 1D
    "lit_1d": Area("1D", "LIT-1D", "Lithuania",
                   [(24.85, 54.89), (25.28, 54.69), (24.93, 54.64), (23.10, 55.37), (25.83, 53.60),
                    (23.83, 53.68), (22.5, 55.7), (24.0, 55.8)],
                   "Kernavė", "Kernavė, Vilnius, Trakai, Raseiniai (Samogitia), Navahrudak, Hrodna"),
    "pol_1d": Area("1D", "POL-1D", "Poland (Masovia)",
                   [(21.24, 51.95), (21.30, 52.30), (22.07, 53.18), (22.66, 52.40), (21.75, 50.68),
                    (22.57, 51.25), (21.3, 53.0)],
                   "Czersk", "Czersk, Warsaw, Łomża, Drohiczyn, Sandomierz, Lublin"),
    "rus_1d": Area("1D", "RUS-1D", "Russia (Novgorod, Pskov, Polotsk, Smolensk, Kiev)",
                   [(31.28, 58.52), (28.33, 57.82), (28.78, 55.49), (32.05, 54.78), (30.20, 55.19),
                    (27.56, 53.90), (27.73, 52.07), (26.10, 52.11), (31.35, 57.99), (32.3, 60.0),
                    (30.53, 56.34), (23.70, 52.10), (25.33, 50.75), (24.32, 50.85), (30.52, 50.45),
                    (31.29, 51.49), (28.75, 60.71), (30.13, 61.0), (29.5, 59.3), (28.0, 59.3)],
                   "Novgorod", "Novgorod, Pskov, Polotsk, Smolensk, Vitebsk, Minsk, Turov, Pinsk, Ladoga, "
                   "Velikiye Luki, Brest, Lutsk, Volodymyr, Kiev, Chernigov, Vyborg (Karelia)"),
    "liv_1d": Area("1D", "LIV-1D", "Livonia",
                   [(24.10, 56.95), (25.27, 57.31), (26.72, 58.38), (24.75, 59.44), (22.48, 58.25),
                    (24.50, 58.39), (26.50, 55.87), (21.97, 56.97), (21.5, 56.5), (27.3, 57.0)],
                   "Riga", "Riga, Cēsis, Tartu, Tallinn (Reval), Kuressaare, Pärnu, Daugavpils, Kuldīga"),
    # 1E
    "rus_1e": Area("1E", "RUS-1E", "Russia (Vladimir-Suzdal, Moscow, Ryazan, Chernigov)",
                   [(40.41, 56.13), (37.62, 55.75), (40.30, 54.50), (33.26, 52.00), (36.19, 51.73),
                    (39.42, 57.18), (39.87, 57.63), (35.90, 56.86), (40.45, 56.42), (39.89, 59.22),
                    (34.36, 53.24), (42.05, 55.58), (40.93, 57.77), (37.60, 54.20), (39.2, 51.67),
                    (36.0, 59.0), (43.5, 58.5)],
                   "Vladimir", "Vladimir, Moscow, Old Ryazan, Novgorod-Seversky, Kursk, Rostov, Yaroslavl, Tver, "
                   "Suzdal, Vologda, Bryansk, Murom, Kostroma, Tula, Voronezh"),
    "plv_1e": Area("1E", "PLV-1E", "Polovtsy (northern steppe)",
                   [(36.20, 50.00), (38.80, 50.20), (41.50, 50.30), (44.00, 51.00), (40.5, 51.0),
                    (33.5, 50.0), (42.8, 52.0)],
                   "Sharukan", "Sharukan (Donets), Don and Khopyor steppe"),
    # 1F
    "rus_1f": Area("1F", "RUS-1F", "Russia (Nizhny Novgorod)",
                   [(44.50, 56.30), (45.50, 57.70), (47.00, 59.30), (44.80, 59.00), (46.0, 58.5)],
                   "Nizhny Novgorod", "Nizhny Novgorod (founded 1221), the Vetluga and Unzha forests"),
    "blg_1f": Area("1F", "BLG-1F", "The Bulgars (Volga Bulgaria)",
                   [(49.05, 54.98), (49.96, 54.98), (48.90, 54.60), (49.10, 55.80), (55.96, 54.74),
                    (50.10, 53.20), (54.0, 52.0), (48.0, 51.0), (52.0, 56.5), (45.5, 54.5), (46.5, 52.5),
                    (51.0, 50.5), (56.0, 58.0)],
                   "Bolghar", "Bolghar, Bilär, Suvar, Kazan, the Bashkir land (Ufa), Samara bend"),
    # 2A
    "fra_2a": Area("2A", "FRA-2A", "France (Aquitaine, Poitou, Toulouse, Orléanais)",
                   [(-0.58, 44.84), (1.44, 43.60), (0.34, 46.58), (1.26, 45.83), (1.90, 47.90),
                    (0.69, 47.39), (2.40, 47.08), (-1.15, 46.16), (-1.47, 43.49), (2.35, 43.21),
                    (0.62, 44.20), (2.6, 44.5), (-0.4, 43.3), (2.0, 46.3)],
                   "Bordeaux", "Bordeaux, Toulouse, Poitiers, Limoges, Orléans, Tours, Bourges, La Rochelle, Bayonne, "
                   "Carcassonne, Agen"),
    "spa_2a": Area("2A", "SPA-2A", "Spain (León-Castile, Navarre, Aragon-Catalonia, Portugal)",
                   [(-3.70, 42.34), (-5.57, 42.60), (-4.02, 39.86), (-1.64, 42.81), (-0.89, 41.65),
                    (2.17, 41.39), (-8.54, 42.88), (-8.61, 41.15), (-3.70, 40.42), (-5.66, 40.97),
                    (-4.72, 41.65), (-8.43, 40.20), (2.90, 42.70), (-0.41, 42.14), (-2.0, 43.2),
                    (-6.5, 43.3), (-1.1, 40.3), (-7.0, 40.0)],
                   "Burgos", "Burgos, León, Toledo, Pamplona, Zaragoza, Barcelona, Santiago, Porto, Madrid, "
                   "Salamanca, Valladolid, Coimbra, Perpignan, Huesca"),
    # 2B
    "fra_2b": Area("2B", "FRA-2B", "France (Champagne, Burgundy, Auvergne, Languedoc)",
                   [(4.07, 48.30), (5.04, 47.32), (3.09, 45.78), (3.88, 43.61), (4.36, 43.84),
                    (3.88, 45.04), (3.16, 46.99), (4.83, 46.31), (3.30, 48.56), (4.4, 44.8)],
                   "Troyes", "Troyes, Dijon, Clermont, Montpellier, Nîmes, Le Puy, Nevers, Mâcon, Provins"),
    "hre_2b": Area("2B", "HRE-2B", "Holy Roman Empire (Lorraine, Swabia, Arles, Lombardy, Tuscany)",
                   [(9.19, 45.46), (6.18, 48.69), (7.75, 48.58), (6.02, 47.24), (7.59, 47.56),
                    (8.54, 47.37), (9.17, 47.66), (10.90, 48.37), (11.58, 48.14), (9.99, 48.40),
                    (12.15, 48.54), (13.04, 47.80), (11.40, 47.27), (7.45, 46.95), (6.14, 46.20),
                    (5.92, 45.57), (5.72, 45.19), (4.63, 43.68), (5.37, 43.30), (7.26, 43.70),
                    (4.81, 43.95), (4.87, 45.52), (7.69, 45.07), (9.16, 45.19), (8.93, 44.41),
                    (11.34, 44.49), (11.26, 43.77), (10.40, 43.72), (11.33, 43.32), (10.33, 44.80),
                    (10.99, 45.44), (11.12, 46.07), (13.50, 43.60), (11.88, 45.41), (11.62, 44.84),
                    (12.24, 45.67), (13.37, 45.77), (13.23, 46.06), (12.4, 43.1), (6.2, 44.2)],
                   "Milan", "Milan, Nancy, Strasbourg, Besançon, Basel, Zürich, Konstanz, Augsburg, Munich, Ulm, "
                   "Landshut, Salzburg, Innsbruck, Bern, Geneva, Chambéry, Grenoble, Arles, Marseille, Nice, "
                   "Avignon, Vienne, Turin, Pavia, Genoa, Bologna, Florence, Pisa, Siena, Parma, Verona, Trento, "
                   "Ancona, Padua, Ferrara, Treviso, Aquileia, Udine, Perugia"),
    "ven_2b": Area("2B", "VEN-2B", "Venice (the dogado)",
                   [(12.34, 45.44), (12.28, 45.22), (12.88, 45.60), (12.42, 45.50), (12.08, 45.14),
                    (13.39, 45.68)],
                   "Venice", "Venice, Chioggia, Caorle, Torcello, Cavarzere, Grado"),
    # 2C
    "hre_2c": Area("2C", "HRE-2C", "Holy Roman Empire (Austria, Bohemia, Moravia, Carinthia)",
                   [(16.37, 48.21), (14.42, 50.08), (16.61, 49.20), (17.25, 49.59), (14.29, 48.31),
                    (15.44, 47.07), (14.51, 46.06), (14.31, 46.62), (13.62, 45.94), (15.8, 50.0),
                    (13.9, 49.3)],
                   "Vienna", "Vienna, Prague, Brno, Olomouc, Linz, Graz, Ljubljana, Klagenfurt, Gorizia"),
    "hun_2c": Area("2C", "HUN-2C", "Hungary (Hungary, Croatia, Transylvania, Bosnia)",
                   [(18.74, 47.79), (19.04, 47.50), (18.41, 47.19), (17.11, 48.15), (15.98, 45.81),
                    (21.26, 48.72), (18.09, 48.31), (21.93, 47.07), (23.60, 46.77), (23.58, 46.07),
                    (20.15, 46.25), (18.23, 46.07), (25.60, 45.65), (16.44, 43.51), (15.23, 44.12),
                    (21.23, 45.75), (18.40, 43.86), (16.20, 44.03), (14.44, 45.33), (20.46, 44.79),
                    (17.5, 44.8), (24.5, 47.5), (19.5, 48.7)],
                   "Esztergom", "Esztergom, Buda, Székesfehérvár, Pozsony, Zagreb, Kassa, Nyitra, Várad, Kolozsvár, "
                   "Gyulafehérvár, Szeged, Pécs, Brassó, Split, Zara, Temesvár, Bosnia, Knin, Rijeka, Belgrade"),
    "pol_2c": Area("2C", "POL-2C", "Poland (Lesser Poland)",
                   [(19.94, 50.06), (20.67, 50.35), (20.69, 49.62), (20.99, 50.01), (18.22, 50.09),
                    (18.63, 49.75), (22.0, 50.3), (20.02, 49.48), (21.77, 49.69)],
                   "Kraków", "Kraków, Wiślica, Sącz, Tarnów, Racibórz, Cieszyn, Nowy Targ, Krosno"),
    "rus_2c": Area("2C", "RUS-2C", "Russia (Galicia and Podolia)",
                   [(24.72, 49.12), (22.77, 49.78), (24.03, 49.84), (25.70, 49.30), (26.58, 48.68),
                    (25.04, 48.53), (26.99, 48.60), (26.5, 47.5), (27.2, 50.2), (23.3, 50.3)],
                   "Halych", "Halych, Przemyśl, Lviv, Terebovlia, Kamianets, Kolomyia, Bakota, Berlad country"),
    "ser_2c": Area("2C", "SER-2C", "Serbia (Raška and Hum)",
                   [(20.46, 43.14), (21.90, 43.32), (21.33, 43.58), (20.64, 43.70), (17.90, 43.00),
                    (18.34, 42.71), (19.5, 43.3)],
                   "Ras", "Ras, Niš, Kruševac, Žiča, Hum, Trebinje"),
    "ven_2c": Area("2C", "VEN-2C", "Venice (Istria)",
                   [(13.73, 45.55), (13.85, 44.87), (13.60, 45.23), (13.64, 45.08), (13.57, 45.53)],
                   "Koper", "Koper (Capodistria), Pula, Poreč, Rovinj, Piran"),
    "bul_2c": Area("2C", "BUL-2C", "Bulgaria (Tarnovo, Vidin, Wallachia)",
                   [(25.63, 43.08), (22.88, 43.99), (24.62, 43.42), (23.80, 44.32), (26.10, 44.43),
                    (27.26, 44.12), (24.67, 45.15), (23.32, 42.70), (26.9, 45.3), (22.5, 43.4)],
                   "Tarnovo", "Tarnovo, Vidin, Pleven, Craiova, the Wallachian plain, Silistra, Argeș, Sofia"),
    # 2D
    "bul_2d": Area("2D", "BUL-2D", "Bulgaria (Dobruja and the Black Sea coast)",
                   [(27.91, 43.21), (28.63, 44.18), (27.73, 42.66), (28.46, 45.27), (28.80, 45.18),
                    (27.44, 43.18), (27.3, 44.1), (27.47, 42.50)],
                   "Varna", "Varna, Constanța, Mesembria, Isaccea, Tulcea, Provadia, Silistra, Burgas"),
    "cum_2d": Area("2D", "CUM-2D", "The Cumans (Moldavia and the western steppe)",
                   [(27.60, 47.16), (30.35, 46.19), (29.00, 47.50), (31.00, 46.80), (28.60, 46.20),
                    (32.50, 46.60), (30.5, 48.5), (28.0, 48.3), (33.5, 48.0)],
                   "Iași", "Iași country, Cetatea Albă, the Bugeac, the Dnieper mouth (Oleshky)"),
    "plv_2d": Area("2D", "PLV-2D", "Polovtsy (eastern steppe and Crimea)",
                   [(37.50, 47.30), (35.00, 47.50), (39.70, 47.20), (34.10, 45.00), (41.00, 45.00),
                    (34.95, 44.85), (38.5, 44.5), (40.0, 43.3), (36.0, 48.7), (39.5, 48.7), (41.5, 47.5)],
                   "Donets steppe", "Donets and Don steppe, Tana, the Crimean steppe and Sudak, the Kuban"),
    # 2F
    "blg_2f": Area("2F", "BLG-2F", "The Bulgars (beyond the Volga)",
                   [(49.50, 48.50), (52.00, 47.50), (54.50, 48.50), (51.50, 49.60), (54.50, 45.00),
                    (53.5, 42.5), (55.5, 41.0)],
                   "Saqsin", "Saqsin, the Yaik and Emba steppe, Mangyshlak"),
    "plv_2f": Area("2F", "PLV-2F", "Polovtsy (lower Volga and Caspian steppe)",
                   [(44.50, 48.70), (43.00, 46.50), (45.50, 45.00), (42.50, 44.50), (47.50, 46.40),
                    (44.6, 43.2), (46.5, 47.8)],
                   "Itil", "Volga-Don portage, Manych, Kalmyk steppe, Stavropol, the Alan country, Itil"),
    "geo_2f": Area("2F", "GEO-2F", "Georgia (Caucasia)",
                   [(44.79, 41.72), (42.70, 42.27), (45.47, 41.92), (46.36, 40.68), (48.64, 40.63),
                    (43.28, 41.38), (48.29, 42.06), (47.0, 42.2), (41.7, 41.6), (41.8, 42.7)],
                   "Tbilisi", "Tbilisi, Kutaisi, Telavi, Ganja, Shamakhi (Shirvan), Vardzia, Derbent, Abkhazia"),
    # 3A
    "spa_3a": Area("3A", "SPA-3A", "Spain (Andalusia, Murcia, the Algarve, the Balearics)",
                   [(-5.99, 37.39), (-4.78, 37.89), (-3.60, 37.18), (-1.13, 37.99), (-0.38, 39.47),
                    (-9.14, 38.72), (-8.44, 37.19), (-6.97, 38.88), (-3.79, 37.77), (-2.46, 36.84),
                    (-4.42, 36.72), (-6.34, 38.92), (-6.29, 36.53), (-5.60, 36.01), (-5.45, 36.13),
                    (2.65, 39.57), (1.43, 38.91), (3.84, 40.00), (4.26, 39.89)],
                   "Seville", "Seville, Córdoba, Granada, Murcia, Valencia, Lisbon, Silves, Badajoz, Jaén, Almería, "
                   "Málaga, Mérida, Cádiz, Tarifa, Algeciras; Palma, Ibiza, Ciutadella, Maó"),
    "alm_3a": Area("3A", "ALM-3A", "The Almoravids (Morocco and western Algeria)",
                   [(-7.99, 31.63), (-5.00, 34.03), (-6.84, 34.02), (-5.32, 35.89), (-1.32, 34.88),
                    (-0.63, 35.70), (3.06, 36.75), (-4.27, 31.28), (-5.55, 33.90), (-4.01, 34.21),
                    (-5.81, 35.77), (-9.60, 30.42), (2.87, 33.80), (1.32, 35.37), (0.5, 31.5), (-2.0, 32.5)],
                   "Marrakesh", "Marrakesh, Fez, Rabat, Ceuta, Tlemcen, Oran, Algiers, Sijilmasa, Meknes, Taza, "
                   "Tangier, Agadir, Laghouat, Tiaret"),
    # 3B
    "alm_3b": Area("3B", "ALM-3B", "The Almoravids (eastern Algeria and Tunis)",
                   [(10.18, 36.80), (5.08, 36.75), (6.61, 36.37), (7.75, 36.90), (9.87, 37.27),
                    (9.18, 36.73), (5.40, 36.40), (8.0, 36.5)],
                   "Tunis", "Tunis, Bougie, Constantine, Bône, Bizerte, Béja, Sétif"),
    "hre_3b": Area("3B", "HRE-3B", "Holy Roman Empire (Kingdom of Sicily: Naples and Sicily)",
                   [(13.36, 38.12), (14.27, 40.85), (15.55, 38.19), (15.29, 37.07), (15.09, 37.50),
                    (13.58, 37.31), (14.21, 41.08), (14.77, 40.68), (15.65, 38.11), (13.40, 42.35),
                    (13.93, 42.05), (13.70, 42.66), (14.66, 41.56), (15.65, 40.99), (15.5, 40.2),
                    (12.5, 37.9)],
                   "Palermo", "Palermo, Naples, Messina, Syracuse, Catania, Agrigento, Capua, Salerno, Reggio, "
                   "L'Aquila, Sulmona, Teramo, Campobasso, Melfi"),
    "sar": Area("3B", "SAR", "Sardinia and Corsica",
                             [(9.11, 39.22), (8.56, 40.73), (8.59, 39.91), (8.74, 41.92), (9.45, 42.70),
                              (9.50, 40.92)],
                             "Cagliari", "Cagliari, Sassari, Oristano, Ajaccio, Bastia, Olbia"),
    "papal_states": Area("3B", "Papal States", "Papal States",
                         [(12.50, 41.90), (12.10, 42.42), (12.11, 42.72), (12.74, 42.73), (13.16, 41.74),
                          (13.25, 41.29), (12.86, 42.40), (13.58, 42.85), (11.80, 42.09), (11.11, 42.76)],
                         "Rome", "Rome, Viterbo, Orvieto, Spoleto, Anagni, Terracina, Rieti, Ascoli, Civitavecchia, "
                         "Grosseto (the Patrimony of St Peter and the duchy of Spoleto south of 43°N)"),
    # 3C
    "bul_3c": Area("3C", "BUL-3C", "Bulgaria (Sofia, Thrace and Skopje)",
                   [(24.75, 42.14), (23.32, 42.70), (23.39, 41.52), (21.43, 42.00), (25.63, 42.43),
                    (22.69, 42.28)],
                   "Plovdiv", "Plovdiv (Philippopolis), Sofia, Melnik, Skopje, Stara Zagora, Kyustendil"),
    "byz_3c": Area("3C", "BYZ-3C", "Byzantium (Despotate of Epirus)",
                   [(20.99, 39.16), (20.85, 39.66), (19.45, 41.32), (21.83, 38.39), (20.80, 41.12),
                    (19.92, 39.62), (19.95, 40.70), (19.49, 40.47), (20.6, 38.6)],
                   "Arta", "Arta, Ioannina, Durrës, Naupaktos, Ohrid, Corfu, Berat, Vlorë, Cephalonia"),
    "hre_3c": Area("3C", "HRE-3C", "Holy Roman Empire (Apulia and Calabria)",
                   [(16.87, 41.13), (17.24, 40.46), (17.94, 40.64), (16.25, 39.30), (18.17, 40.35),
                    (15.55, 41.46), (16.59, 38.91), (15.80, 40.64), (15.9, 41.8), (16.0, 38.6)],
                   "Bari", "Bari, Taranto, Brindisi, Cosenza, Lecce, Foggia, Catanzaro, Potenza"),
    "lat_3c": Area("3C", "LAT-3C", "Latin Kingdom (Thessalonica, Athens, Achaea)",
                   [(22.94, 40.64), (23.73, 37.98), (23.32, 38.32), (22.93, 37.94), (22.42, 39.64),
                    (21.27, 37.90), (22.43, 37.07), (22.80, 37.57), (23.55, 41.09), (22.11, 37.04),
                    (24.15, 41.15), (24.88, 41.14), (22.0, 40.3), (21.8, 39.0), (26.0, 40.9)],
                   "Thessalonica", "Thessalonica, Athens, Thebes, Corinth, Larissa, Andravida, Sparta, Nauplia, "
                   "Serres, Kalamata, Drama, Xanthi, Mosynopolis"),
    "ser_3c": Area("3C", "SER-3C", "Serbia (Zeta and Kosovo)",
                   [(20.74, 42.21), (19.51, 42.07), (20.29, 42.66), (18.77, 42.42), (19.26, 42.44),
                    (21.12, 42.52), (21.16, 42.66)],
                   "Prizren", "Prizren, Shkodër, Peć, Kotor, Podgorica, Lipljan, Pristina"),
    "ven_3c": Area("3C", "VEN-3C", "Venice (the Aegean isles)",
                   [(25.38, 37.10), (23.60, 38.46), (24.84, 37.84), (25.15, 37.08), (25.43, 36.40),
                    (22.99, 36.25), (24.42, 36.73), (25.16, 37.54), (25.33, 37.45), (24.92, 37.45),
                    (24.33, 37.63)],
                   "Naxos", "Naxos, Negroponte (Euboea), Andros, Paros, Santorini, Kythira, Milos, Tinos, "
                   "Mykonos, Syros, Kea"),
    # 3D
    "byz_3d": Area("3D", "BYZ-3D", "Byzantium (Empire of Nicaea)",
                   [(29.72, 40.43), (29.06, 40.19), (27.14, 38.42), (27.50, 38.50), (28.52, 38.35),
                    (27.43, 38.61), (27.00, 39.60), (27.34, 37.94), (27.28, 37.53), (26.69, 40.35),
                    (29.92, 40.77), (29.03, 40.98), (26.4, 40.1), (30.5, 40.0), (28.0, 39.5),
                    (26.3, 39.2), (26.0, 38.4)],
                   "Nicaea", "Nicaea, Bursa, Smyrna, Nymphaion, Philadelphia, Magnesia, Adramyttion, Ephesus, "
                   "Miletus, Lampsacus, Nicomedia, Chalcedon, Lesbos, Chios"),
    "koj_3d": Area("3D", "KOJ-3D", "Kingdom of Jerusalem (Principality of Antioch)",
                   [(36.16, 36.20), (35.78, 35.52), (36.0, 36.6), (35.9, 36.0)],
                   "Antioch", "Antioch, Latakia, Port St Symeon"),
    "lat_3d_thrace": Area("3D", "LAT-3D-Thrace", "Latin Kingdom (Thrace and Constantinople)",
                          [(28.95, 41.02), (26.56, 41.68), (27.51, 40.98), (26.67, 40.41), (27.36, 41.42),
                           (26.50, 41.35), (28.25, 41.07), (28.0, 41.8)],
                          "Constantinople", "Constantinople, Adrianople, Rodosto, Gallipoli, Arcadiopolis, "
                          "Didymoteicho, Selymbria"),
    "lat_3d_armenia": Area("3D", "LAT-3D-Armenia", "Latin Kingdom (Armenia: Cilicia)",
                           [(34.89, 36.99), (35.32, 37.00), (34.64, 36.80), (35.83, 36.83), (33.93, 36.36),
                            (36.1, 37.2)],
                           "Tarsus", "Tarsus, Adana, Mersin, Mamistra, Seleucia, Sis"),
    "sel_3d": Area("3D", "SEL-3D", "Seljuks of Rum",
                   [(32.49, 37.87), (30.70, 36.90), (35.48, 38.73), (36.88, 39.75), (32.85, 39.93),
                    (34.15, 41.38), (35.15, 42.02), (30.28, 37.76), (33.0, 38.5), (31.6, 39.8),
                    (29.5, 37.5), (38.3, 38.4), (37.0, 37.5), (32.0, 41.3), (41.0, 40.0), (39.5, 39.7),
                    (41.5, 37.0), (39.0, 37.1), (34.68, 37.97), (33.22, 37.18)],
                   "Konya", "Konya, Antalya, Kayseri, Sivas, Ankara, Kastamonu, Sinop, Eğirdir, Denizli, "
                   "Malatya, Erzurum, Amida, Niğde, Karaman"),
    "ven_3d": Area("3D", "VEN-3D", "Venice (Rhodes)",
                   [(28.22, 36.43), (27.95, 36.20)],
                   "Rhodes", "Rhodes (Venice's island in the game; Byzantine-Genoese in fact)"),
    "tre_3d": Area("3D", "TRE-3D", "Trebizond",
                   [(39.72, 41.00), (38.39, 40.91), (37.88, 41.00), (40.52, 41.02), (36.33, 41.29),
                    (39.0, 40.6), (41.4, 41.4)],
                   "Trebizond", "Trebizond, Kerasous, Oinaion, Rize, Amisos"),
    # 3F
    "ayy_3f": Area("3F", "AYY-3F", "Ayyubids (Baghdad and Upper Mesopotamia)",
                   [(44.36, 33.31), (43.13, 36.34), (42.0, 34.0), (44.5, 32.0), (41.0, 35.5), (46.0, 32.5),
                    (43.5, 31.5), (41.3, 32.0), (40.5, 33.5)],
                   "Baghdad", "Baghdad, Mosul, Anbar, Kufa, Jazira"),
    "geo_3f": Area("3F", "GEO-3F", "Georgia (Azerbaijan and Armenia)",
                   [(46.29, 38.08), (43.57, 40.51), (44.51, 40.18), (45.0, 39.4), (47.5, 39.5),
                    (48.3, 38.25), (44.0, 39.0)],
                   "Tabriz", "Tabriz, Ani, Dvin (Yerevan), Nakhchivan, Baylaqan, Ardabil"),
    "sel_3f": Area("3F", "SEL-3F", "Seljuks of Rum (Erzurum and the east)",
                   [(41.27, 39.90), (42.7, 38.5), (40.5, 38.9), (41.5, 38.4), (43.4, 38.5)],
                   "Erzurum", "Erzurum, Ahlat, Erzincan, Muş, Van"),
    # 4B
    "alm_4b": Area("4B", "ALM-4B", "The Almoravids (Ifriqiya and Tripolitania)",
                   [(10.10, 35.68), (13.19, 32.89), (10.10, 33.88), (10.76, 34.74), (8.13, 33.92),
                    (5.73, 34.85), (14.4, 31.5), (11.0, 31.5), (7.0, 32.0), (14.0, 29.5), (9.5, 30.0)],
                   "Kairouan", "Kairouan, Tripoli, Gabès, Sfax, Tozeur, Biskra, the Tripolitanian coast and Fezzan"),
    "hre_4b": Area("4B", "HRE-4B", "Holy Roman Empire (Malta)",
                   [(14.51, 35.90), (14.25, 36.04)],
                   "Mdina", "Mdina and Gozo (the Kingdom of Sicily's Malta)"),
    # 4C
    "ayy_4c": Area("4C", "AYY-4C", "Ayyubids (Cyrenaica and the Western Desert)",
                   [(20.07, 32.12), (21.86, 32.76), (23.96, 32.08), (27.24, 31.35), (25.52, 29.20),
                    (19.0, 30.5), (22.0, 30.0), (17.0, 29.0), (28.5, 30.5)],
                   "Barqa", "Benghazi, Cyrene, Tobruk, Mersa Matruh, Siwa, Barqa"),
    "ven_4c": Area("4C", "VEN-4C", "Venice (Crete)",
                   [(25.13, 35.34), (24.02, 35.51), (24.47, 35.37), (26.1, 35.2)],
                   "Candia", "Candia, Chania, Rethymno, Sitia"),
    # 4D
    "ayy_4d": Area("4D", "AYY-4D", "Ayyubids (Egypt and Syria)",
                   [(31.24, 30.04), (29.92, 31.20), (31.81, 31.42), (36.29, 33.51), (36.72, 34.73),
                    (37.16, 36.20), (32.3, 29.5), (33.8, 29.0), (38.5, 32.5), (37.0, 30.0), (39.5, 35.0),
                    (35.93, 31.95), (30.5, 28.5), (38.5, 29.0), (39.0, 31.0), (36.4, 35.1)],
                   "Cairo", "Cairo, Alexandria, Damietta, Damascus, Homs, Aleppo, Sinai, Petra, Hama"),
    "koj_4d": Area("4D", "KOJ-4D", "Kingdom of Jerusalem (Acre, Tyre, Tripoli)",
                   [(35.07, 32.93), (35.20, 33.27), (35.84, 34.44), (35.23, 31.78), (34.75, 32.05),
                    (35.5, 33.9), (35.00, 32.50)],
                   "Acre", "Acre, Tyre, Tripoli, Jerusalem, Jaffa, Beirut, Caesarea"),
    "lat_4d": Area("4D", "LAT-4D", "Latin Kingdom (Cyprus)",
                   [(33.36, 35.17), (33.94, 35.12), (32.42, 34.77), (34.0, 35.5)],
                   "Nicosia", "Nicosia, Famagusta, Paphos, the Karpas"),
}

# Land of no Power, drawn so a card shows its whole art (kind "context").
CONTEXT: dict[str, Area] = {
    "scotland": Area("1A", "", "Kingdom of Scotland",
                     [(-4.25, 55.86), (-3.19, 55.95), (-4.22, 57.48), (-2.10, 57.15), (-5.00, 58.20),
                      (-3.0, 59.0), (-3.4, 56.4), (-6.2, 57.4), (-5.5, 56.5)],
                     "", "Glasgow, Edinburgh, Inverness, Aberdeen, Sutherland, Orkney, Perth, Skye"),
    "ireland": Area("1A", "", "Ireland (the English lordship and the Gaelic kingdoms)",
                    [(-6.26, 53.35), (-8.47, 51.90), (-8.63, 52.66), (-7.30, 54.60), (-9.05, 53.27)],
                    "", "Dublin, Cork, Limerick, Tyrone, Galway"),
    "finland": Area("1D", "", "Finland and Tavastia",
                    [(22.27, 60.45), (24.46, 60.99), (25.70, 60.60), (23.0, 60.9)],
                    "", "Turku, Hämeenlinna, Porvoo (not a Power in the game)"),
    "persia": Area("3F", "", "Persia (Khwarazmian Iran)",
                   [(51.43, 35.59), (51.67, 32.65), (50.00, 36.27), (51.44, 33.98), (54.36, 31.90),
                    (54.43, 36.84), (53.39, 35.57), (48.51, 34.80), (49.7, 34.1), (55.5, 33.5)],
                   "", "Rey, Isfahan, Qazvin, Kashan, Yazd, Gorgan, Semnan, Hamadan"),
}

# Naval areas of §1.3 in its order per card: id sea_<card>_<n>; sea points (lon, lat) in water.
SEAS: dict[str, Area] = {
    "sea_1a_1": Area("1A", "1A-Atl", "Atlantic, Channel and Irish Sea",
                     [(-6.0, 50.0), (-2.0, 50.2), (-5.0, 53.5), (-9.5, 56.0), (-10.0, 48.5), (-8.0, 58.6),
                      (-10.5, 52.0), (-7.0, 55.6), (-4.0, 48.9)], "", "sea points off Ushant, in the Channel, Irish Sea, Hebrides"),
    "sea_1b_1": Area("1B", "1B-North", "North Sea",
                     [(3.0, 54.0), (1.0, 57.0), (4.0, 58.0), (7.0, 55.0), (2.0, 51.3), (0.5, 50.4),
                      (8.0, 57.6), (2.0, 60.0), (-1.0, 58.5)], "", "sea points across the North Sea and Skagerrak"),
    "sea_1c_1": Area("1C", "1C-Baltic", "Baltic Sea (south and west)",
                     [(11.5, 57.0), (14.0, 55.0), (17.0, 56.0), (19.5, 58.0), (19.5, 60.8), (13.0, 54.5),
                      (19.0, 55.0), (21.0, 61.5)], "", "sea points in the Kattegat, the southern Baltic and Bothnia"),
    "sea_1d_1": Area("1D", "1D-Baltic", "Baltic Sea (east)",
                     [(23.0, 57.8), (26.0, 60.0), (21.5, 56.0), (21.5, 58.5), (23.0, 59.5), (21.5, 60.5)],
                     "", "sea points in the Gulfs of Riga and Finland"),
    "sea_2a_1": Area("2A", "2A-Biscay", "Bay of Biscay",
                     [(-4.0, 45.0), (-2.0, 46.5), (-7.0, 44.3), (-9.5, 43.0), (-9.8, 41.0), (-9.7, 39.8),
                      (-4.0, 47.5)], "", "sea points across the Bay of Biscay and off Galicia"),
    "sea_2a_2": Area("2A", "2A-Med", "Catalan Sea",
                     [(1.5, 40.6), (2.8, 41.5), (0.3, 39.7), (2.5, 40.2), (3.0, 42.5)],
                     "", "sea points off Catalonia and Valencia"),
    "sea_2b_1": Area("2B", "2B-Lion", "Gulf of Lion and Ligurian Sea",
                     [(4.5, 43.2), (6.0, 43.0), (8.5, 43.5), (9.8, 43.2), (3.4, 43.1)],
                     "", "sea points in the Gulf of Lion and the Ligurian Sea"),
    "sea_2b_2": Area("2B", "2B-Adriatic", "Adriatic Sea (north)",
                     [(13.0, 44.5), (13.0, 45.3), (12.8, 44.2), (13.7, 43.6)],
                     "", "sea points in the northern Adriatic"),
    "sea_2c_1": Area("2C", "2C-Adriatic", "Adriatic Sea (Dalmatia)",
                     [(15.0, 43.5), (16.5, 42.9), (14.5, 44.5), (17.5, 42.7), (14.3, 43.2), (14.8, 42.7)],
                     "", "sea points off Dalmatia"),
    "sea_2d_1": Area("2D", "2D-Black", "Black Sea (north)",
                     [(31.0, 44.0), (34.0, 43.3), (37.0, 44.0), (30.0, 45.5), (36.0, 45.8), (40.0, 43.0),
                      (28.5, 42.5), (32.0, 46.2), (38.0, 46.8)], "", "sea points in the northern Black Sea and the Sea of Azov"),
    "sea_2f_1": Area("2F", "2F-Caspian", "Caspian Sea (north)",
                     [(50.0, 44.0), (51.0, 41.0), (49.5, 46.0), (52.0, 42.5), (48.0, 44.0), (51.5, 44.5)],
                     "", "sea points in the northern and middle Caspian"),
    "sea_3a_1": Area("3A", "3A-Sea", "Atlantic and Alboran Sea",
                     [(-8.0, 36.0), (-3.0, 36.0), (0.0, 37.0), (2.0, 38.5), (-9.5, 38.0), (-9.8, 33.0),
                      (-7.5, 36.8), (-10.0, 30.5), (3.5, 39.0), (-5.5, 35.95), (-1.0, 35.6)],
                     "", "sea points off the Algarve, in the Strait and the Alboran Sea, around the Balearics"),
    "sea_3b_1": Area("3B", "3B-Tyrrhenian", "Tyrrhenian Sea",
                     [(12.0, 40.0), (10.5, 41.0), (7.0, 39.0), (11.0, 37.8), (13.5, 39.0), (6.0, 37.5),
                      (10.5, 42.5), (7.5, 41.0), (15.5, 37.5), (4.5, 38.5), (8.0, 42.5), (12.5, 36.6)],
                     "", "sea points in the Tyrrhenian, off Sardinia and the Sicilian channel"),
    "sea_3c_1": Area("3C", "3C-Ionian-Aegean", "Ionian and Aegean Seas",
                     [(17.5, 39.5), (19.0, 38.0), (20.0, 36.5), (24.5, 39.0), (25.0, 37.5), (23.5, 37.2),
                      (18.5, 41.5), (16.5, 42.2), (16.0, 36.5), (25.5, 40.3), (23.0, 40.2), (26.5, 36.5)],
                     "", "sea points in the Ionian, the southern Adriatic and the Aegean"),
    "sea_3d_1": Area("3D", "3D-Med", "Eastern Mediterranean and Aegean (east)",
                     [(27.0, 36.8), (30.0, 36.1), (31.0, 36.5), (34.5, 36.3), (26.5, 38.0), (28.0, 40.7),
                      (26.2, 39.5), (35.5, 36.1), (32.8, 36.05)], "", "sea points in the eastern Aegean, off Lycia and Cilicia, the Marmara"),
    "sea_3d_2": Area("3D", "3D-Black", "Black Sea (south)",
                     [(30.0, 41.7), (33.0, 41.9), (37.0, 41.5), (40.0, 41.5), (35.5, 41.8), (31.5, 41.6)],
                     "", "sea points off the Anatolian Black Sea coast"),
    "sea_3f_1": Area("3F", "3F-Caspian", "Caspian Sea (south)",
                     [(51.0, 38.5), (50.5, 40.5), (52.0, 37.5), (51.0, 37.0)],
                     "", "sea points in the southern Caspian"),
    "sea_4b_1": Area("4B", "4B-Med", "Central Mediterranean",
                     [(12.0, 35.0), (15.0, 34.0), (11.0, 33.8), (14.0, 32.8), (10.8, 36.1), (12.5, 36.2),
                      (15.5, 35.8), (15.5, 32.0)], "", "sea points off Tunisia, Malta and Tripoli"),
    "sea_4c_1": Area("4C", "4C-Med", "Libyan Sea",
                     [(20.0, 34.0), (24.0, 35.6), (25.0, 33.5), (18.0, 33.0), (28.0, 34.5), (19.0, 31.0),
                      (26.5, 35.5), (22.5, 33.0)], "", "sea points in the Libyan Sea and the Gulf of Sidra"),
    "sea_4d_1": Area("4D", "4D-Levant", "Levantine Sea",
                     [(33.0, 34.0), (31.0, 33.0), (33.5, 32.0), (35.0, 35.0), (30.0, 34.0), (34.5, 35.8),
                      (29.5, 31.8)], "", "sea points across the Levantine Sea"),
}


class Zone(NamedTuple):
    """Land where only centres standing inside it compete (water too narrow for Voronoi)."""

    countries: list[str]  # modern countries making the zone ([] = any)
    clip: list[Coord] | None  # polygon cutting the countries (None = whole countries)
    ignore_boxes: bool  # True: the zone's land goes to its centres whatever card boxes cover it


# The water line of the Dardanelles, the Marmara and the Bosporus (lon, lat), south-west to north-east.
STRAITS_LINE: list[Coord] = [(25.9, 39.8), (26.22, 40.02), (26.45, 40.2), (26.7, 40.38), (27.5, 40.72), (28.5, 40.9),
                             (28.99, 41.0), (29.03, 41.08), (29.07, 41.15), (29.12, 41.25), (29.6, 41.6)]

# In priority order; land in no zone is the main zone.
ZONES: dict[str, Zone] = {
    # §1.2/§1.3: the Balearics are on 3A, but Mallorca straddles 39.5°N and Menorca lies east of 4°E.
    "balearics": Zone(["Spain"], [(1.0, 38.5), (4.6, 38.5), (4.6, 40.2), (1.0, 40.2)], True),
    # Corsica's Cap Corse reaches 43.0°N, a few km into 2B's box; both islands are one 3B province.
    "corsica_sardinia": Zone(["France", "Italy"], [(8.0, 38.7), (10.0, 38.7), (10.0, 43.1), (8.0, 43.1)], True),
    # Rhodes reaches below 36°N, into 4D's box; it is Venice's 3D province.
    "rhodes": Zone(["Greece"], [(27.6, 35.8), (28.4, 35.8), (28.4, 36.5), (27.6, 36.5)], True),
    # Thrace west of the Dardanelles, the Marmara and the Bosporus (reference §6: the Straits separate
    # LAT-3D-Thrace from BYZ-3D).
    "thrace": Zone(["Turkey", "Greece", "Bulgaria"],
                   [*STRAITS_LINE, (29.6, 42.0), (25.9, 42.0)], False),
    # Africa is joined to Asia only at Suez; keep Iberian and Sicilian centres off it.
    "africa": Zone(["Morocco", "Algeria", "Tunisia", "Libya", "Egypt", "W. Sahara"], None, False),
    # Scandinavia faces Jutland, Germany and the Baltic lands across narrow seas.
    "scandinavia": Zone(["Norway", "Sweden", "Finland", "Åland"], None, False),
}


# --------------------------------------------------------------------------------------------
def card_faces() -> list[tuple[Any, tuple[str, ...]]]:
    """The plane cut by the card boxes: (face polygon, cards whose box covers it)."""
    boxes = {c: box(*card.box) for c, card in CARDS.items()}
    noded = shapely.unary_union([shapely.boundary(b) for b in boxes.values()])
    faces = []
    for f in shapely.polygonize(list(getattr(noded, "geoms", [noded]))).geoms:
        rp = f.point_on_surface()
        cards = tuple(sorted(c for c, b in boxes.items() if b.contains(rp)))
        if cards:
            faces.append((f, cards))
    return faces


def split_by_seeds(region: Any, areas: dict[str, Area], allowed: set[str]) -> dict[str, list[Any]]:
    """Split `region` among the allowed areas: each connected part by the Voronoi cells of the
    centres it holds; a part holding none goes whole to the nearest allowed centre."""
    out: dict[str, list[Any]] = defaultdict(list)
    pts = [(Point(c), a) for a in sorted(allowed) for c in areas[a].seeds]
    if not pts:
        return out
    for part in polygons_of(region):
        inside: dict[str, list[Coord]] = defaultdict(list)
        for p, a in pts:
            if part.covers(p):
                inside[a].append((p.x, p.y))
        if inside:
            for a, piece in voronoi_assign(part, dict(inside), ENVELOPE).items():
                out[a].append(piece)
        else:
            rp = part.point_on_surface()
            a = min(pts, key=lambda pa: (pa[0].distance(rp), pa[1]))[1]
            out[a].append(part)
    return out


def build() -> dict[str, Any]:
    """Compute every feature; return the GeoJSON FeatureCollection as a dict."""
    topo_names = {g["properties"]["name"] for g in json.loads(SOURCE.read_text(encoding="utf-8"))
                  ["objects"]["countries"]["geometries"] if "name" in g.get("properties", {})}
    countries = decode_topojson(SOURCE, topo_names)
    cover = shapely.unary_union([box(*c.box) for c in CARDS.values()])
    # islands a zone gives to a card explicitly may lie partly outside every box (Menorca)
    extent = shapely.unary_union([cover] + [Polygon(z.clip) for z in ZONES.values() if z.ignore_boxes and z.clip])
    clipped = {n: shapely.make_valid(shapely.intersection(g, extent)) for n, g in sorted(countries.items())}
    clipped = {n: shapely.unary_union([p for p in polygons_of(g) if p.area >= MIN_ISLAND_DEG2] or [Polygon()])
               for n, g in clipped.items()}
    clipped = {n: g for n, g in clipped.items() if not g.is_empty}
    land = shapely.make_valid(shapely.unary_union(list(clipped.values())))
    # the Dardanelles, the Marmara and the Bosporus stay water at 1:50m (reference §6: the Straits
    # separate LAT-3D-Thrace from BYZ-3D)
    straits = LineString(STRAITS_LINE).buffer(STRAIT_HALF_WIDTH_DEG, quad_segs=2)
    clipped = {n: shapely.make_valid(shapely.difference(g, straits)) for n, g in clipped.items()}
    land = shapely.make_valid(shapely.difference(land, straits))
    faces = card_faces()
    land_areas: dict[str, Area] = {**PROVINCES, **CONTEXT}

    # zones of land, and the centres standing in each
    zone_geom: dict[str, Any] = {}
    taken = Polygon()
    for z, zone in ZONES.items():
        region = shapely.unary_union([clipped[n] for n in zone.countries if n in clipped])
        if zone.clip is not None:
            region = shapely.intersection(region, Polygon(zone.clip))
        region = shapely.make_valid(shapely.difference(region, taken))
        zone_geom[z] = region
        taken = shapely.union(taken, region)
    zone_geom["main"] = shapely.make_valid(shapely.difference(land, taken))
    near = {z: g.buffer(0.02) for z, g in zone_geom.items() if z in ZONES}

    def seed_zone(c: Coord) -> str:
        return next((z for z in ZONES if near[z].covers(Point(c))), "main")

    zone_areas: dict[str, dict[str, Area]] = defaultdict(dict)
    for a, area in land_areas.items():
        for z in sorted({seed_zone(c) for c in area.seeds}):
            zone_areas[z][a] = area._replace(seeds=[c for c in area.seeds if seed_zone(c) == z])

    # 1. land: an island holding the centres of one province only stays whole with it, even where
    # it crosses a card edge (Mallorca, Lesbos, Chios, Rhodes, Cap Corse); the rest per zone and
    # face, Voronoi of the allowed centres per landmass
    assigned: dict[str, list[Any]] = defaultdict(list)
    for z in sorted(zone_geom):
        whole = []
        for part in polygons_of(zone_geom[z]):
            if part.area > WHOLE_ISLAND_DEG2:
                continue
            owners_here = {a for a, ar in zone_areas[z].items() if any(part.covers(Point(c)) for c in ar.seeds)}
            if not owners_here:  # an island with no centre: the nearest of its card's provinces
                rp = part.representative_point()
                near_pts = [(Point(c).distance(rp), a) for a, ar in sorted(zone_areas[z].items())
                            if box(*CARDS[ar.card].box).contains(rp) for c in ar.seeds]
                owners_here = {min(near_pts)[1]} if near_pts else set()
            if len(owners_here) == 1:
                assigned[owners_here.pop()].append(part)
                whole.append(part)
        if whole:
            zone_geom[z] = shapely.make_valid(shapely.difference(zone_geom[z], shapely.unary_union(whole)))
    for z in sorted(zone_geom):
        zg = zone_geom[z]
        if zg.is_empty:
            continue
        ignore = z in ZONES and ZONES[z].ignore_boxes
        if ignore:
            for a, pieces in split_by_seeds(zg, zone_areas[z], set(zone_areas[z])).items():
                assigned[a].extend(pieces)
            continue
        for face, cards in faces:
            region = shapely.make_valid(shapely.intersection(zg, face))
            if region.is_empty or region.area < 1e-9:
                continue
            allowed = {a for a, ar in zone_areas[z].items() if ar.card in cards}
            for a, pieces in split_by_seeds(region, zone_areas[z], allowed).items():
                assigned[a].extend(pieces)
    land_geom = {a: shapely.make_valid(shapely.unary_union(v)) for a, v in assigned.items()}

    # 2. water: the same with the sea points, over the water inside the card boxes
    water = shapely.make_valid(shapely.difference(cover, land))
    sea_pieces: dict[str, list[Any]] = defaultdict(list)
    for face, cards in faces:
        region = shapely.make_valid(shapely.intersection(water, face))
        allowed = {s for s, sea in SEAS.items() if sea.card in cards}
        if region.is_empty or not allowed:
            continue
        for part in polygons_of(region):
            inside = {s: [c for c in SEAS[s].seeds if part.covers(Point(c))] for s in sorted(allowed)}
            inside = {s: v for s, v in inside.items() if v}
            if inside:
                for s, piece in voronoi_assign(part, inside, ENVELOPE).items():
                    sea_pieces[s].append(piece)
            else:
                sea_pieces[f"?{sorted(allowed)[0]}"].append(part)  # resolved below
    sea_geom: dict[str, Any] = {}
    orphans = [p for k, v in sea_pieces.items() if k.startswith("?") for p in v]
    for s in sorted(k for k in sea_pieces if not k.startswith("?")):
        parts = polygons_of(shapely.make_valid(shapely.unary_union(sea_pieces[s])))
        keep = [p for p in parts if any(p.covers(Point(c)) for c in SEAS[s].seeds)]
        orphans.extend(p for p in parts if not any(p.covers(Point(c)) for c in SEAS[s].seeds))
        sea_geom[s] = shapely.unary_union(keep)
    # water with no sea point (a strait cut off by a box edge, a lagoon) joins the naval area it
    # shares most border with, else the land around it if small; the Red Sea gulfs stay undrawn
    for piece in sorted(orphans, key=lambda p: (-p.area, p.bounds)):
        for pool, limit in ((sea_geom, float("inf")), (land_geom, LAGOON_DEG2)):
            shared = {s: shapely.intersection(piece.boundary, g.boundary).length for s, g in pool.items()}
            shared = {s: v for s, v in shared.items() if v > 0}
            if pool is sea_geom:  # a naval area whose card covers the piece comes first
                covers = {s: v for s, v in shared.items()
                          if box(*CARDS[SEAS[s].card].box).buffer(1e-6).covers(piece)}
                shared = covers or shared
            if shared and piece.area < limit:
                s = max(sorted(shared), key=lambda k: shared[k])
                pool[s] = shapely.unary_union([pool[s], piece])
                break

    # every principal town stands inside its province, even where the 1:50m coast smooths it
    # into the water (Constantinople on the Golden Horn)
    owners = {**land_geom, **sea_geom}
    for a in sorted(land_areas):
        if a not in owners or not land_areas[a].town:
            continue
        disc = Point(land_areas[a].seeds[0]).buffer(CITY_DISC_DEG, quad_segs=4)
        for other in sorted(owners):
            if other != a:
                owners[other] = shapely.make_valid(shapely.difference(owners[other], disc))
        owners[a] = shapely.make_valid(shapely.union(owners[a], disc))

    # 3. one exact coverage, simplified as shared lines
    dissolved = exact_coverage(owners, [shapely.boundary(cover)], SLIVER_DEG2)
    finished = finish_coverage(dissolved, SIMPLIFY_DEG, SEGMENT_DEG, DECIMALS)

    features: list[dict[str, Any]] = []
    for o in sorted(finished):
        geom = finished[o]
        if o in PROVINCES:
            ar, kind = PROVINCES[o], "land"
        elif o in CONTEXT:
            ar, kind = CONTEXT[o], "context"
        else:
            ar, kind = SEAS[o], "sea"
        props: dict[str, Any] = {"id": o, "name": ar.name, "kind": kind, "card": ar.card}
        if kind == "land":
            if "-" in ar.ref:
                props["power"] = ar.ref.split("-")[0]
        if ar.ref:
            props["ref"] = ar.ref
        city: Coord | None = None
        if ar.town:
            city = ar.seeds[0]
            props["city"] = ar.town
            props["city_lon"], props["city_lat"] = city
        lx, ly = label_point(geom, city[0] if city else None, city[1] if city else None)
        props["label"] = ar.name
        props["label_lon"] = round(lx, DECIMALS)
        props["label_lat"] = round(ly, DECIMALS)
        what = {"land": "province", "context": "land of no Power", "sea": "naval area"}[kind]
        props["provenance"] = (f"{what} of map card {ar.card} per {REFERENCE} §1.3; reconstructed: "
                               f"Voronoi centres at {ar.note}; outline from Natural Earth 1:50m")
        features.append({"type": "Feature", "id": o, "properties": props, "geometry": rounded(mapping(geom), DECIMALS)})
    for c, card in CARDS.items():
        rect = shapely.orient_polygons(shapely.segmentize(box(*card.box), SEGMENT_DEG), exterior_cw=True)
        x0, y0, x1, y1 = card.box
        props = {"id": c, "name": f"Map card {c}", "kind": "card", "card": c, "start": card.start,
                 "region": card.region, "grid": list(card.grid), "label": c,
                 "label_lon": round((x0 + x1) / 2, DECIMALS), "label_lat": round((y0 + y1) / 2, DECIMALS),
                 "provenance": f"card box (lon/lat) per {REFERENCE} §1.2 [P]: the published card art was not available"}
        features.append({"type": "Feature", "id": c, "properties": props, "geometry": rounded(mapping(rect), DECIMALS)})
    kind_rank = {"land": 0, "sea": 1, "context": 2, "card": 3}
    features.sort(key=lambda f: (kind_rank[f["properties"]["kind"]], f["properties"]["card"], f["id"]))
    b = cover.bounds
    return {
        "type": "FeatureCollection",
        "name": "medieval-xiii",
        "source": "Natural Earth 1:50m Admin 0 (public domain) via npm world-atlas@2.0.2 countries-50m.json",
        "frame": [b[0], b[1], b[2], b[3]],
        "features": features,
    }


def main(argv: list[str] | None = None) -> int:
    """Build and write the GeoJSON (``--out PATH`` to write elsewhere); print its size."""
    return build_main("build_medieval.py", build, SOURCE, OUT, argv)


if __name__ == "__main__":
    sys.exit(main())
