"""Drawing: pure functions from (state, map, style) to plotly figures."""
