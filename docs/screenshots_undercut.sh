# Undercut screenshots (sourced by docs/screenshots.sh, which defines shot()).
# Full table, physical bag, 3 players: every draw is entered from the menus.
UC_PHYS="ok,ok,down,ok,ok,down,down,ok,up,up,ok"
UC_SETUP="ok,ok,down,ok,down,down,ok,ok,down,ok,down,down,ok,ok,ok,down,down,ok,ok,down,ok"
UC_STACKS="ok,ok,ok,down,ok,down,ok,down,ok"
shot undercut_setup "ok,ok,ok,ok,ok"
shot undercut_sheet "ok,ok,down,ok,ok,down,ok,up,ok,down,ok"
shot undercut_auction "$UC_PHYS,$UC_SETUP,$UC_STACKS,ok,down,down,ok,ok,ok,ok"
shot undercut_bid_picker "$UC_PHYS,$UC_SETUP,$UC_STACKS,ok,down,down,ok,ok,ok,ok,down,ok,down,ok"
shot undercut_summary "$UC_PHYS,$UC_SETUP,$UC_STACKS,ok,down,down,ok,ok,ok,ok,down,ok,down,ok,ok,ok,ok,ok,ok"
shot undercut_scores "$UC_PHYS,$UC_SETUP,$UC_STACKS,ok,down,down,ok,ok,ok,ok,down,ok,down,ok,ok,ok,ok,ok,ok,ok,ok,right"
shot undercut_winner "ok,ok,down,ok,ok,down,ok,up,ok,down,ok,down,ok,down,down,ok,down,down,ok,ok,ok,ok,ok,up,up,up,up,up,ok,up,up,up,ok"
