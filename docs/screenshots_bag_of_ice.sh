# Bag of Ice screenshots (sourced by docs/screenshots.sh, which defines shot()).
# Names from a settings file; the turn and the size choice come from a virtual
# game (seed 15), the rest from the physical die and bag, where every face and
# piece is entered from the menus. Each shot is made twice: in English
# (boi_NAME.png) and in French (boi_NAME_fr.png, the settings' language = "fr";
# the menus are in the same order, so the keys are the same).
BOI_CFG=$(mktemp)
printf 'players = ["Ann", "Bob", "Cat"]\n' > "$BOI_CFG"
BOI_CFG_FR=$(mktemp)
printf 'players = ["Ann", "Bob", "Cat"]\nlanguage = "fr"\n' > "$BOI_CFG_FR"
BOI_VIRT="ok,down,ok,ok,ok,ok,ok"           # defaults: 3 players, 60, virtual, roll-off; dismiss the roll-off
BOI_PHYS="ok,down,ok,ok,ok,down,down,ok,down,ok,ok,up,up,up,ok"   # physical, Ann starts
# Ann draws the rules' scoring example: yL yM yS gL cM pS yS cS (32, B-5)
BOI_EXAMPLE="ok,down,down,ok,ok,ok,down,ok,ok,ok,ok,ok,ok,down,down,ok,ok,ok,down,down,down,ok,down,ok,down,ok,ok,ok,down,down,down,ok,ok,down,down,down,down,ok,ok,ok,ok,ok,down,ok"
# Target 30; Ann banks a yellow tree, Bob busts on rL, Cat banks 2, Ann banks a green tree and wins
BOI_T30="ok,down,ok,ok,ok,down,left,left,left,down,ok,down,ok,ok,up,up,up,ok"
BOI_GAME="ok,down,down,ok,ok,ok,down,ok,ok,ok,ok,ok,down,ok,ok,ok,down,down,down,down,ok,down,ok,down,down,down,down,ok"
BOI_END="ok,ok,down,ok,down,ok,down,ok,ok,ok,down,down,ok,down,ok,ok,down,ok,down,ok,ok,ok,down,ok,down,ok,ok"
shot boi_setup "ok,down,ok,ok,ok" --config "$BOI_CFG"
shot boi_rolloff "ok,down,ok,ok,ok,ok" --config "$BOI_CFG" --seed 15
shot boi_turn "$BOI_VIRT,ok,down,ok,ok,ok" --config "$BOI_CFG" --seed 15
shot boi_size "$BOI_VIRT,ok,down,ok,ok,ok,ok" --config "$BOI_CFG" --seed 15
shot boi_odds "$BOI_VIRT,ok,down,ok,ok,ok,hold-ok" --config "$BOI_CFG" --seed 15
shot boi_bank "$BOI_PHYS,$BOI_EXAMPLE,down,ok" --config "$BOI_CFG"
shot boi_bust "$BOI_T30,$BOI_GAME" --config "$BOI_CFG"
shot boi_winner "$BOI_T30,$BOI_GAME,$BOI_END" --config "$BOI_CFG"
shot boi_scores "$BOI_T30,$BOI_GAME,$BOI_END,ok" --config "$BOI_CFG"
# The same in French
shot boi_setup_fr "ok,down,ok,ok,ok" --config "$BOI_CFG_FR"
shot boi_rolloff_fr "ok,down,ok,ok,ok,ok" --config "$BOI_CFG_FR" --seed 15
shot boi_turn_fr "$BOI_VIRT,ok,down,ok,ok,ok" --config "$BOI_CFG_FR" --seed 15
shot boi_size_fr "$BOI_VIRT,ok,down,ok,ok,ok,ok" --config "$BOI_CFG_FR" --seed 15
shot boi_odds_fr "$BOI_VIRT,ok,down,ok,ok,ok,hold-ok" --config "$BOI_CFG_FR" --seed 15
shot boi_bank_fr "$BOI_PHYS,$BOI_EXAMPLE,down,ok" --config "$BOI_CFG_FR"
shot boi_bust_fr "$BOI_T30,$BOI_GAME" --config "$BOI_CFG_FR"
shot boi_winner_fr "$BOI_T30,$BOI_GAME,$BOI_END" --config "$BOI_CFG_FR"
shot boi_scores_fr "$BOI_T30,$BOI_GAME,$BOI_END,ok" --config "$BOI_CFG_FR"
# Two players: the advice to win (B-10)
BOI_CFG2=$(mktemp)
printf 'players = ["Ann", "Bob"]\n' > "$BOI_CFG2"
BOI_CFG2_FR=$(mktemp)
printf 'players = ["Ann", "Bob"]\nlanguage = "fr"\n' > "$BOI_CFG2_FR"
BOI_TWO="ok,down,ok,down,ok,ok,ok,ok,ok,ok,ok"
shot boi_win "$BOI_TWO" --config "$BOI_CFG2" --seed 3
shot boi_win_odds "$BOI_TWO,hold-ok" --config "$BOI_CFG2" --seed 3
shot boi_win_fr "$BOI_TWO" --config "$BOI_CFG2_FR" --seed 3
rm -f "$BOI_CFG" "$BOI_CFG_FR" "$BOI_CFG2" "$BOI_CFG2_FR"
