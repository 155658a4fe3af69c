#!/bin/sh
# Regenerate the README's screenshots with the headless simulator:
#   sh docs/screenshots.sh
# Each one is `companion sim --keys ... --screenshot` on a fresh journal.
set -eu
cd "$(dirname "$0")/.."
C=".venv/bin/companion"
shot() {  # shot NAME KEYS [extra args]
    name=$1; keys=$2; shift 2
    j=$(mktemp -d)/journal.db
    XDG_CONFIG_HOME=$(dirname "$j") "$C" sim --journal "$j" --seed 7 --keys "$keys" --scale 3 \
        --screenshot "docs/img/$name.png" "$@"
}
shot main_menu ""
shot die_roll "down,ok,ok,ok,ok"
shot bag_draw "down,ok,down,ok,ok,down,down,ok"
shot start_player "down,ok,down,down,ok,ok,ok"
for extra in docs/screenshots_*.sh; do  # each game's own shots, using shot()
    [ -f "$extra" ] && . "$extra"
done
echo "screenshots in docs/img/"
