#!/bin/sh
# Regenerate the screenshots of the README and docs/guide/ with the headless simulator:
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
shot2() {  # shot2 NAME SETTINGS KEYS [extra args]: NAME.png in English and NAME_fr.png in French,
           # with SETTINGS (TOML lines, may be "") in a settings file given by --config
    name=$1; settings=$2; keys=$3; shift 3
    d=$(mktemp -d)
    printf '%s\n' "$settings" > "$d/en.toml"
    printf '%s\nlanguage = "fr"\n' "$settings" > "$d/fr.toml"
    shot "$name" "$keys" --config "$d/en.toml" "$@"
    shot "${name}_fr" "$keys" --config "$d/fr.toml" "$@"
    rm -rf "$d"
}
shot main_menu ""
shot die_roll "down,ok,ok,ok,ok"
shot bag_draw "down,ok,down,ok,ok,down,down,ok"
shot start_player "down,ok,down,down,ok,ok,ok"
for extra in docs/screenshots_*.sh; do  # each game's own shots, using shot()
    [ -f "$extra" ] && . "$extra"
done
echo "screenshots in docs/img/"
