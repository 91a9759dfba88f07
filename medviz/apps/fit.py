"""``ScreenFit``: tells an app how much of the screen its map may take, and puts the app in full screen.

A browser-side helper (an anywidget): it measures the height the page shows (the notebook's scrolling
panel in JupyterLab, the window in Voilà, the screen in full screen) less what the app puts above its
map, and reports it as ``room``; the app then draws its map that tall, so the controls, the words and
the whole map fit on one screen. It measures again when the window, JupyterLab's side bar or the
full-screen state changes. Its one button puts the app alone on the screen (a class at a projector).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

__all__ = ["ScreenFit", "fit_height", "layout_width"]

#: The map is never laid out shorter than this (px): below it the side panel's boxes overlap and the map
#: itself shrinks to a stamp (seen at 360-480 px); with less room the browser scales it down instead.
MIN_MAP_HEIGHT = 560

_ESM = r"""
function scroller(el) {
  // The element whose height the page shows: the full-screen element, JupyterLab's notebook panel, else
  // the nearest ancestor that really scrolls (an output area's overflow-x makes it 'auto' without
  // scrolling, so a box that is not taller inside than outside does not count), else the window.
  if (document.fullscreenElement && document.fullscreenElement.contains(el)) return document.fullscreenElement;
  const lab = el.closest('.jp-WindowedPanel-outer');
  if (lab) return lab;
  for (let p = el.parentElement; p; p = p.parentElement) {
    const s = getComputedStyle(p);
    if ((s.overflowY === 'auto' || s.overflowY === 'scroll') && p.clientHeight > 0
        && p.scrollHeight > p.clientHeight + 1 && p.clientHeight <= window.innerHeight + 1) return p;
  }
  return null;
}
export default {
  render({ model, el }) {
    el.classList.add('medviz-screenfit');
    const button = document.createElement('button');
    button.className = 'jupyter-button widget-button medviz-fullscreen';
    button.title = 'show this app alone on the whole screen (Esc leaves)';
    const label = () => { button.textContent = document.fullscreenElement ? 'Leave full screen' : 'Full screen'; };
    label();
    el.appendChild(button);
    const root = () => el.closest('.medviz-app');
    button.addEventListener('click', () => {
      const app = root();
      if (document.fullscreenElement) document.exitFullscreen();
      else if (app && app.requestFullscreen) app.requestFullscreen();
    });
    let last = null, lastRoom = 0;
    // Below the least height the app lays its map out at (its side panel needs it), the map is laid out
    // that tall and scaled down to the room (a CSS transform, which plotly.js accounts for in hover and
    // clicks); its width is then laid out wider by the same factor, so it still spans the app.
    // A map that needs less than that (a wide map: as tall as its shape needs) is scaled only if it is taller
    // than the room. The height read is the one plotly.js laid out (an app's responsive figure keeps none in
    // its layout: the least height was taken for every map, so a wide map was drawn wider than its place).
    // A map laid out wider than its place (the kernel planned it for less room or a wider place) is scaled to
    // the place's width; a scaled map is laid out at the width it was planned for, stretched by at most
    // STRETCH px to span its place: stretched further, its side panel drifted away from the map (about 110 px
    // in the classroom's dice lab after "Branch here", until the kernel had laid it out for the new room).
    const STRETCH = 40;  // px, as apps.common.WIDTH_STEP: a map drawn that much off its plan is not laid out again
    const scale = (gd, room) => {
      const fl = gd._fullLayout || {};
      const high = (gd.layout && gd.layout.height) || fl.height || Infinity;
      const tall = Math.min(model.get('least'), high);
      // the width of its place: its holder's content box (the app itself, whose padding grows in full screen)
      const holder = gd.parentElement, hs = holder ? getComputedStyle(holder) : null;
      const place = holder ? holder.clientWidth - parseFloat(hs.paddingLeft) - parseFloat(hs.paddingRight) : 0;
      const planned = Number(((gd.layout && gd.layout.meta) || {}).width) || 0;
      let k = room > 0 && room < tall ? room / tall : 1;
      if (model.get('least') > 1 && planned > 0 && place > 0 && (k < 1 || planned > place + STRETCH)) {
        k = Math.min(k, place / planned);
      }
      const style = {transformOrigin: '', transform: '', width: '', marginBottom: ''};
      if (k < 0.999) {
        // The graph keeps its place in the app's column: laid out as wide as the place over k (or as planned),
        // and its layout box's extra height taken back by a negative margin (a transform leaves the box as it was).
        const even = place > 0 ? place / k : 0;
        const wide = planned > 0 && (even <= 0 || even - planned > STRETCH) ? planned : even;
        style.transformOrigin = '0 0';
        style.transform = `scale(${k.toFixed(4)})`;
        style.width = wide > 0 ? `${wide.toFixed(1)}px` : `${(100 / k).toFixed(3)}%`;
        style.marginBottom = `${-Math.floor((isFinite(high) ? high : tall) * (1 - k))}px`;
      }
      // Compared with what was set last, not read back: the browser gives '0 0' back as '0px 0px', which counted
      // as a change after every draw and sent a window resize (plotly's whole redraw) after each click.
      const wanted = JSON.stringify(style), changed = gd.__medvizStyle !== wanted;
      if (changed) {
        gd.__medvizStyle = wanted;
        for (const [key, value] of Object.entries(style)) gd.style[key] = value;
      }
      // Its layout box stays as wide as it is laid out: its holder (the app, a box that scrolls) would scroll
      // sideways onto a blank band, so it is clipped sideways while the map is scaled.
      const clip = k < 0.999 ? 'hidden' : '';
      if (holder && holder.style.overflowX !== clip) holder.style.overflowX = clip;
      gd.dataset.medvizScale = k.toFixed(4);
      return changed;
    };
    const measure = () => {
      const app = root();
      if (!app || !app.isConnected) return;
      const map = app.querySelector('.js-plotly-plot');
      if (!map) return;
      const sc = scroller(app);
      const visible = sc ? sc.clientHeight : window.innerHeight;
      const above = map.getBoundingClientRect().top - app.getBoundingClientRect().top;
      const room = Math.floor(visible - above - model.get('reserve'));
      const now = [room, Math.floor(app.clientWidth)];
      lastRoom = room;
      hook(map);
      // plotly.js fits a responsive figure to its new width on the window's resize event
      if (scale(map, room)) setTimeout(() => window.dispatchEvent(new Event('resize')), 30);
      if (room > 0 && (last === null || Math.abs(now[0] - last[0]) > 3 || Math.abs(now[1] - last[1]) > 3)) {
        last = now;
        model.set('room', room);
        model.set('width', now[1]);
        model.save_changes();
      }
    };
    // Each time the kernel lays the map out again (another height or planned width), scale it for that layout.
    const hook = (gd) => {
      if (gd.__medvizScaled || typeof gd.on !== 'function') return;
      gd.__medvizScaled = true;
      gd.on('plotly_afterplot', () => {
        if (lastRoom > 0 && scale(gd, lastRoom)) setTimeout(() => window.dispatchEvent(new Event('resize')), 30);
      });
    };
    let timer = null;
    const soon = (ms) => { clearTimeout(timer); timer = setTimeout(measure, ms); };
    const onResize = () => soon(150);
    const onFull = () => { label(); soon(250); };
    window.addEventListener('resize', onResize);
    document.addEventListener('fullscreenchange', onFull);
    let observer = null;
    const watch = () => {
      const app = root();
      const sc = app && scroller(app);
      if (sc && window.ResizeObserver) { observer = new ResizeObserver(onResize); observer.observe(sc); }
    };
    // When the map's height changes (the app drew it for the room measured), have plotly.js fit it to the
    // width it has again: a responsive plotly figure refits on the window's resize event.
    let mapHeight = null, mapObserver = null;
    const watchMap = () => {
      const map = root() && root().querySelector('.js-plotly-plot');
      if (!map || !window.ResizeObserver) return;
      mapObserver = new ResizeObserver(() => {
        const h = Math.round(map.getBoundingClientRect().height);
        if (mapHeight !== null && h !== mapHeight) setTimeout(() => window.dispatchEvent(new Event('resize')), 30);
        mapHeight = h;
      });
      mapObserver.observe(map);
    };
    requestAnimationFrame(() => { measure(); watch(); watchMap(); });
    setTimeout(measure, 600);  // the map may be drawn after this widget
    model.on('msg:custom', (msg) => { if (msg && msg.measure) { last = null; soon(50); } });
    return () => {
      window.removeEventListener('resize', onResize);
      document.removeEventListener('fullscreenchange', onFull);
      if (observer) observer.disconnect();
      if (mapObserver) mapObserver.disconnect();
    };
  }
};
"""

_CSS = """
.medviz-screenfit { display: flex; justify-content: flex-end; }
.medviz-fullscreen { height: 28px; padding: 0 10px; white-space: nowrap; }
.medviz-app:fullscreen { background: var(--jp-layout-color0, white); overflow: auto; padding: 8px 12px;
                         box-sizing: border-box; }
.medviz-app:fullscreen > * { flex-shrink: 0; }
/* The dice lab's "Branch made" line beside its buttons, in at most two lines: the row keeps its height, so the
   map under it keeps its room (a line of its own moved the map down and had it laid out again at every branch). */
.medviz-app .medviz-branch-message { flex: 1 1 260px; min-width: 0; margin-left: 8px; }
.medviz-app .medviz-branch-message .widget-html-content {
  line-height: 1.3; white-space: normal; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical;
  overflow: hidden; }
"""


class ScreenFit(anywidget.AnyWidget):
    """The room (px) below the top of the app's map on one screen, measured in the browser, and a full-screen button.

    It belongs inside an app that carries the class ``medviz-app`` and whose map is a plotly graph;
    ``reserve`` px are kept free under the map. With less room than ``least`` px the map is laid out
    ``least`` px tall and scaled down in the browser to fit.
    """

    _esm = _ESM
    _css = _CSS
    room = traitlets.Int(0).tag(sync=True)
    width = traitlets.Int(0).tag(sync=True)
    reserve = traitlets.Int(8).tag(sync=True)
    least = traitlets.Int(MIN_MAP_HEIGHT).tag(sync=True)

    def measure(self) -> None:
        """Ask the browser to measure again (after the app's parts above the map changed)."""
        self.send({"measure": True})


def fit_height(room: int, most: int, least: int = MIN_MAP_HEIGHT) -> int:
    """The map height for ``room`` px of screen: ``room``, but not above ``most`` nor below ``least``."""
    return max(least, min(most, room))


def layout_width(fit: ScreenFit, tall: int | None = None) -> int | None:
    """The width (px) the app's map is laid out at: the app's, or more where the browser scales the map down to
    fit less room than ``least`` (or than ``tall``, the height the map is laid out at, where that is less);
    None before the browser has measured it."""
    room = int(fit.room)
    if not fit.width or room <= 0:
        return None
    high = fit.least if tall is None else min(int(fit.least), int(tall))
    return round(int(fit.width) * max(1.0, high / room))


def follow(fit: ScreenFit, resize: Callable[..., Any], most: int,
           laid_out: Callable[[], Any] | None = None) -> None:
    """Call ``resize(height, width)`` whenever ``fit`` measures new room or a new width: the height bounded by
    ``fit_height``, the width ``layout_width``, so the map is planned for the size it is drawn at.

    ``laid_out`` gives the height (px; None where unknown) the map was then laid out at: a wide map is laid out less tall than ``least``
    (as tall as its shape needs), so the browser scales it down less, and it is laid out again for the width that
    leaves it spanning the app (it was laid out wider than drawn: a blank band, or a map drawn smaller)."""
    def on_room(change: Any) -> None:
        room = int(fit.room)
        if room <= 0:
            return
        height = fit_height(room, most, fit.least)
        resize(height, layout_width(fit))
        tall = laid_out() if laid_out is not None else None
        if isinstance(tall, (int, float)) and 0 < tall < min(height, fit.least) and room < fit.least:
            resize(height, layout_width(fit, int(tall)))
    fit.observe(on_room, names=["room", "width"])
