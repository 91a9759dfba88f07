"""Drawing: pure functions from (state, map, style) to plotly figures."""

from __future__ import annotations

from medviz.viz.basemap import DEFAULT_STYLE, MapStyle, area_traces, base_map
from medviz.viz.state_map import DEFAULT_STATE_STYLE, StateStyle, state_map, update_state_map

__all__ = ["DEFAULT_STATE_STYLE", "DEFAULT_STYLE", "MapStyle", "StateStyle", "area_traces", "base_map",
           "state_map", "update_state_map"]
