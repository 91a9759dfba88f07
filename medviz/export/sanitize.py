"""Untrusted markdown to safe HTML: markdown-it-py (raw HTML off), then an nh3 allow-list.

Annotation files are written by anyone and published in pages that others open, so a note is
never trusted. Two independent layers stand between a note and the page:

1. markdown-it-py renders CommonMark with raw HTML *disabled*: ``<script>`` in a note is shown
   as text, not parsed as a tag; its link validator already refuses ``javascript:``,
   ``vbscript:``, ``file:`` and ``data:`` links.
2. nh3 (the Rust ``ammonia`` sanitizer) cleans the result against a short allow-list of tags and
   attributes; links keep only ``http``, ``https`` and ``mailto`` URLs and get
   ``rel="noopener noreferrer"``. No images (an image would fetch from the network), no
   ``style``, no event handlers, no ``class``/``id``.
"""

from __future__ import annotations

import html as _html
from functools import lru_cache

import nh3
from markdown_it import MarkdownIt

__all__ = ["ALLOWED_ATTRIBUTES", "ALLOWED_TAGS", "URL_SCHEMES", "clean_html", "escape_text", "render_markdown"]

#: Tags a note may produce: text structure, emphasis, lists, quotes, code, tables, links.
ALLOWED_TAGS: frozenset[str] = frozenset({
    "p", "br", "hr", "em", "strong", "del", "s", "sub", "sup", "code", "pre", "blockquote",
    "ul", "ol", "li", "a", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td",
})
#: Attributes kept per tag (``rel`` is set by nh3 itself on links).
ALLOWED_ATTRIBUTES: dict[str, set[str]] = {"a": {"href", "title"}, "ol": {"start"}}
#: The only URL schemes a link may use.
URL_SCHEMES: frozenset[str] = frozenset({"http", "https", "mailto"})


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    # "commonmark" preset with raw HTML explicitly off; tables and strikethrough switched on.
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    # An image would make the page fetch from the network: show its alt text instead.
    md.add_render_rule("image", _image_as_text)
    return md


def _image_as_text(self: object, tokens: list, idx: int, options: object, env: object) -> str:  # type: ignore[type-arg]
    alt = "".join(t.content for t in (tokens[idx].children or []))
    return _html.escape(f"[image: {alt}]" if alt else "[image]")


def clean_html(fragment: str) -> str:
    """Clean an HTML fragment against the allow-list (tags, attributes, URL schemes)."""
    return nh3.clean(
        fragment,
        tags=set(ALLOWED_TAGS),
        clean_content_tags={"script", "style", "iframe", "object", "embed", "svg", "math", "template"},
        attributes={k: set(v) for k, v in ALLOWED_ATTRIBUTES.items()},
        attribute_filter=_absolute_links_only,
        set_tag_attribute_values={"a": {"target": "_blank"}},
        url_schemes=set(URL_SCHEMES),
        link_rel="noopener noreferrer",
        strip_comments=True,
    )


def _absolute_links_only(tag: str, attribute: str, value: str) -> str | None:
    """Drop relative and protocol-relative links (``//host``): a note links out explicitly or not at all."""
    if tag == "a" and attribute == "href":
        return value if value.strip().lower().startswith(("http://", "https://", "mailto:")) else None
    return value


def render_markdown(text: str) -> str:
    """Render untrusted markdown to sanitized HTML (raw HTML is shown as text, never run)."""
    return clean_html(_markdown().render(text))


def escape_text(text: str) -> str:
    """Escape plain text for HTML (titles, dates: never markdown)."""
    return _html.escape(text, quote=True)
