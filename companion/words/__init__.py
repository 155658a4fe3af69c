"""The words under every view (issue 40): how a piece, a move, a title, a
hint, a result and what the device waits for are said, in the language of
the moment (``companion.i18n``).

The OLED screens (``companion.ui``), the serial console, the public
projection (``companion.public``, which the page shows) and the exports all
say these things the same way, so they live here, below all of them. This
package imports the core (engines, pieces, i18n) and nothing of a view.

* ``pieces``: sizes, colors, die faces, pips, Undercut's size mixes;
* ``moves``: a move in words (``move_words``), the History's and the page's;
* ``titles``: a game's or a tool's title (``title_of``);
* ``table``: what the position waits for, who won, a hint, an engine's text
  without its ruling notes (``plain``).

What only one game says (its moves, its waits, its verdicts, its win reason) is
that game's plug-in's (``companion/plugins/``, issue 45), at this layer:
``move_words`` and ``waiting_words`` ask it through the registry.
"""
