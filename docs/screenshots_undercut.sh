# Undercut screenshots (sourced by docs/screenshots.sh, which defines shot()).
# Full table, physical bag, 3 players: every draw is entered from the menus.
# shot2 makes each in English and, as NAME_fr, in French (the same keys).
UC_PHYS="ok,ok,down,ok,ok,down,down,ok,up,up,ok"
UC_SETUP="ok,ok,down,ok,down,down,ok,ok,down,ok,down,down,ok,ok,ok,down,down,ok,ok,down,ok"
UC_STACKS="ok,ok,ok,down,ok,down,ok,down,ok"
UC_AUCTION="$UC_PHYS,$UC_SETUP,$UC_STACKS,ok,down,down,ok,ok,ok,ok"
UC_PICKER="$UC_AUCTION,down,ok,down,ok"
UC_SUMMARY="$UC_PICKER,ok,ok,ok,ok,ok"
UC_SCORES="$UC_SUMMARY,ok,ok,ok,ok,right"  # long pages take an OK per page (issue 13)
UC_SHEET="ok,ok,down,ok,ok,down,ok,up,ok,down,ok"
UC_WINNER="ok,ok,down,ok,ok,down,ok,up,ok,down,ok,down,ok,down,down,ok,down,down,ok,ok,ok,ok,ok,up,up,up,up,up,ok,up,up,up,ok"
shot2 undercut_setup "" "ok,ok,ok,ok,ok"
shot2 undercut_sheet "" "$UC_SHEET"
shot2 undercut_auction "" "$UC_AUCTION"
shot2 undercut_bid_picker "" "$UC_PICKER"
shot2 undercut_summary "" "$UC_SUMMARY"
shot2 undercut_scores "" "$UC_SCORES"
shot2 undercut_winner "" "$UC_WINNER"
