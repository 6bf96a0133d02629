"""The airports the CRM sells, taken from the `airportsdata` package (no hand-typed coordinates)."""
from __future__ import annotations

import re
from functools import lru_cache

import airportsdata

# The 40 US airports on sale; every ordered pair of them is a route.
OFFERED_CODES = (
    "ATL", "AUS", "BNA", "BOS", "BWI", "CLT", "DCA", "DEN", "DFW", "DTW",
    "EWR", "FLL", "HNL", "IAD", "IAH", "JFK", "LAS", "LAX", "LGA", "MCI",
    "MCO", "MDW", "MIA", "MSP", "MSY", "OAK", "ORD", "PDX", "PHL", "PHX",
    "PIT", "RDU", "SAN", "SAT", "SEA", "SFO", "SJC", "SLC", "STL", "TPA",
)

US_STATE_CODES = {
    "Alabama": "AL", "Alaska": "AK", "Arizona": "AZ", "Arkansas": "AR", "California": "CA",
    "Colorado": "CO", "Connecticut": "CT", "Delaware": "DE", "District of Columbia": "DC",
    "Florida": "FL", "Georgia": "GA", "Hawaii": "HI", "Idaho": "ID", "Illinois": "IL",
    "Indiana": "IN", "Iowa": "IA", "Kansas": "KS", "Kentucky": "KY", "Louisiana": "LA",
    "Maine": "ME", "Maryland": "MD", "Massachusetts": "MA", "Michigan": "MI", "Minnesota": "MN",
    "Mississippi": "MS", "Missouri": "MO", "Montana": "MT", "Nebraska": "NE", "Nevada": "NV",
    "New Hampshire": "NH", "New Jersey": "NJ", "New Mexico": "NM", "New York": "NY",
    "North Carolina": "NC", "North Dakota": "ND", "Ohio": "OH", "Oklahoma": "OK", "Oregon": "OR",
    "Pennsylvania": "PA", "Rhode Island": "RI", "South Carolina": "SC", "South Dakota": "SD",
    "Tennessee": "TN", "Texas": "TX", "Utah": "UT", "Vermont": "VT", "Virginia": "VA",
    "Washington": "WA", "West Virginia": "WV", "Wisconsin": "WI", "Wyoming": "WY",
}

# Where the package's city is a suburb, the city a caller would name.
CITY_NAMES = {"DCA": "Washington", "IAD": "Washington", "EWR": "Newark", "BWI": "Baltimore"}


LABEL_CODE = re.compile(r"\(([A-Za-z]{3})\)$")


def code_from_label(text: str) -> str:
    """'New York, NY (JFK)' -> 'JFK'; anything else upper-cased as it is."""
    match = LABEL_CODE.search(text)
    return (match.group(1) if match else text).upper()


@lru_cache(maxsize=1)
def offered_airports() -> tuple[dict, ...]:
    """Rows for the airports table, in code order."""
    source = airportsdata.load("IATA")
    rows = []
    for code in OFFERED_CODES:
        entry = source[code]
        rows.append({
            "code": code,
            "name": entry["name"],
            "city": CITY_NAMES.get(code, entry["city"]),
            "region": US_STATE_CODES.get(entry["subd"], entry["subd"]),
            "country": entry["country"],
            "timezone": entry["tz"],
            "latitude": entry["lat"],
            "longitude": entry["lon"],
        })
    return tuple(rows)
