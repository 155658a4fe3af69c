# Bag of Ice screenshots (sourced by docs/screenshots.sh, which defines shot()).
# Names from a settings file; the turn and the size choice come from a virtual
# game (seed 15), the rest from the physical die and bag, where every face and
# piece is entered from the menus. shot2 makes each in English (boi_NAME.png)
# and in French (boi_NAME_fr.png): the menus are in the same order, so the keys
# are the same.
BOI_SET='players = ["Ann", "Bob", "Cat"]'
BOI_VIRT="ok,down,ok,ok,ok,ok,ok"           # defaults: 3 players, 60, virtual, roll-off; dismiss the roll-off
BOI_PHYS="ok,down,ok,ok,ok,down,down,ok,down,ok,ok,up,up,up,ok"   # physical, Ann starts
# Ann draws the rules' scoring example: yL yM yS gL cM pS yS cS (32, B-5)
BOI_EXAMPLE="ok,down,down,ok,ok,ok,down,ok,ok,ok,ok,ok,ok,down,down,ok,ok,ok,down,down,down,ok,down,ok,down,ok,ok,ok,down,down,down,ok,ok,down,down,down,down,ok,ok,ok,ok,ok,down,ok"
# Target 30; Ann banks a yellow tree, Bob busts on rL, Cat banks 2, Ann banks a green tree and wins
BOI_T30="ok,down,ok,ok,ok,down,left,left,left,down,ok,down,ok,ok,up,up,up,ok"
BOI_GAME="ok,down,down,ok,ok,ok,down,ok,ok,ok,ok,ok,down,ok,ok,ok,down,down,down,down,ok,down,ok,down,down,down,down,ok"
BOI_END="ok,ok,down,ok,down,ok,down,ok,ok,ok,down,down,ok,down,ok,ok,down,ok,down,ok,ok,ok,down,ok,down,ok,ok"
shot2 boi_setup "$BOI_SET" "ok,down,ok,ok,ok"
shot2 boi_rolloff "$BOI_SET" "ok,down,ok,ok,ok,ok" --seed 15
shot2 boi_turn "$BOI_SET" "$BOI_VIRT,ok,down,ok,ok,ok" --seed 15
shot2 boi_size "$BOI_SET" "$BOI_VIRT,ok,down,ok,ok,ok,ok" --seed 15
shot2 boi_odds "$BOI_SET" "$BOI_VIRT,ok,down,ok,ok,ok,hold-ok" --seed 15
shot2 boi_bank "$BOI_SET" "$BOI_PHYS,$BOI_EXAMPLE,down,ok"
shot2 boi_bust "$BOI_SET" "$BOI_T30,$BOI_GAME"
shot2 boi_winner "$BOI_SET" "$BOI_T30,$BOI_GAME,$BOI_END"
shot2 boi_scores "$BOI_SET" "$BOI_T30,$BOI_GAME,$BOI_END,ok"
# Two players: the advice to win (B-10)
BOI_TWO="ok,down,ok,down,ok,ok,ok,ok,ok,ok,ok"
shot2 boi_win 'players = ["Ann", "Bob"]' "$BOI_TWO" --seed 3
BOI_CFG2=$(mktemp)
printf 'players = ["Ann", "Bob"]\n' > "$BOI_CFG2"
shot boi_win_odds "$BOI_TWO,hold-ok" --config "$BOI_CFG2" --seed 3
rm -f "$BOI_CFG2"
