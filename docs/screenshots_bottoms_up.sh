# Bottoms Up screenshots (sourced by docs/screenshots.sh, which defines shot()).
# 4 players, the device draws the secret colors (seed 7: P1 is green); the
# same scenes are pinned in tests/test_ui_bottoms_up.py. shot2: the main screens in
# English and, as NAME_fr, in French (issue 21).
BU_DEV="ok,down,down,ok,ok,ok,ok"
BU_TOUR="hold-ok,release,hold-ok,release,hold-ok,release,hold-ok,release,ok"
BU_OPEN="ok,down,down,ok,down,down,down,ok,up,up,ok"    # rS gS yS wS (BU-4)
BU_BLUE="down,right,ok"                                 # P1: bM on A: blue on rS
BU_YELLOW="down,ok,back,down,down,down,right,down,ok"   # green (BACK closes the result); P2: yM on B: yellow on gS
# check mode: yM on A; the table moved rS onto C but forgot C's recalculation
BU_CHECK="back,down,down,ok,ok,down,down,down,right,ok,down,ok,down,ok,up,ok,up,ok,down,down,ok,down,down,ok,ok,ok,back,up,up,up,ok"
# A short game (18 pieces): the moves of tests/test_ui_bottoms_up.py::scripted_game(11).
BU_SHORT="ok,down,down,ok,ok,ok,down,down,left,left,left,left,up,up,ok,$BU_TOUR"
BU_GAME="down,down,down,ok,up,ok,up,ok,down,ok,down,down,down,ok,ok,ok,down,ok,down,ok,up,ok,back,up,up,right,ok,down,ok,ok,up,ok,down,down,ok,down,ok,ok,back,down,down,down,right,down,down,ok,ok,up,ok,up,up,ok,up,ok,up,ok,back,down,right,down,down,ok,up,ok,ok,back,up,up,ok,up,ok,back,down,down,right,down,down,down,ok,back,ok,ok,up,up,ok,back,ok,down,down,down,ok,back,ok,ok,down,down,ok,ok,back,up,ok,up,up,ok,back,right,down,ok,back,ok,ok,down,ok,back,ok,up,ok,back,ok,down,down,down,ok,back"
shot bu_reveal "$BU_DEV,hold-ok"
shot2 bu_turn "" "$BU_DEV,$BU_TOUR,$BU_OPEN"
shot bu_blue "$BU_DEV,$BU_TOUR,$BU_OPEN,$BU_BLUE"
shot2 bu_yellow "" "$BU_DEV,$BU_TOUR,$BU_OPEN,$BU_BLUE,$BU_YELLOW"
shot2 bu_result "" "$BU_DEV,$BU_TOUR,$BU_OPEN,$BU_BLUE,$BU_YELLOW,down,ok"
shot bu_field "$BU_DEV,$BU_TOUR,$BU_OPEN,$BU_BLUE,$BU_YELLOW,down,ok,back,back,down,ok"
shot2 bu_check "" "$BU_DEV,$BU_TOUR,$BU_OPEN,$BU_CHECK"
shot2 bu_winner "" "$BU_SHORT,$BU_GAME"
shot2 bu_scores "" "$BU_SHORT,$BU_GAME,ok"
