"""Text from data, made safe for plotly: every name, label and hover text is plain text.

plotly.js renders a subset of HTML in every text it draws (trace ``text`` and ``hovertext``,
legend names, titles, annotations): ``<a href>`` becomes a clickable link, ``<span style>`` is
applied to the SVG (``fill:url(http://...)`` makes the browser fetch). Names that come from data
(a teacher's override file, a history's events) must therefore reach a figure escaped, while the
markup medviz adds itself (``<b>``, ``<br>``, ``<i>``) stays markup.

plotly decodes ``&amp;``, ``&lt;``, ``&gt;`` and numeric entities (not ``&quot;``), so
:func:`plain` escapes ``&``, ``<`` and ``>`` only: a hostile name is drawn as the characters it
is made of. Quotes need no escaping: data never lands inside one of medviz's own tags.
"""

from __future__ import annotations

from medviz.engine.portrayal import plain

__all__ = ["plain"]

