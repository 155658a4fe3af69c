# Undercut screenshots (sourced by docs/screenshots.sh, which defines shot()).
# Full table, physical bag, 3 players: every draw is entered from the menus.
# The *_fr shots are the same keys with the screens in French (a settings file
# with language = "fr", given to the simulator with --config).
UC_PHYS="ok,ok,down,ok,ok,down,down,ok,up,up,ok"
UC_SETUP="ok,ok,down,ok,down,down,ok,ok,down,ok,down,down,ok,ok,ok,down,down,ok,ok,down,ok"
UC_STACKS="ok,ok,ok,down,ok,down,ok,down,ok"
UC_AUCTION="$UC_PHYS,$UC_SETUP,$UC_STACKS,ok,down,down,ok,ok,ok,ok"
UC_PICKER="$UC_AUCTION,down,ok,down,ok"
UC_SUMMARY="$UC_PICKER,ok,ok,ok,ok,ok"
UC_SCORES="$UC_SUMMARY,ok,ok,right"
UC_SHEET="ok,ok,down,ok,ok,down,ok,up,ok,down,ok"
UC_WINNER="ok,ok,down,ok,ok,down,ok,up,ok,down,ok,down,ok,down,down,ok,down,down,ok,ok,ok,ok,ok,up,up,up,up,up,ok,up,up,up,ok"
UC_FR="$(mktemp -d)/companion-fr.toml"
printf 'language = "fr"\n' > "$UC_FR"
for uc_lang in en fr; do
    if [ "$uc_lang" = fr ]; then uc_sfx=_fr; uc_args="--config $UC_FR"; else uc_sfx=; uc_args=; fi
    shot "undercut_setup$uc_sfx" "ok,ok,ok,ok,ok" $uc_args
    shot "undercut_sheet$uc_sfx" "$UC_SHEET" $uc_args
    shot "undercut_auction$uc_sfx" "$UC_AUCTION" $uc_args
    shot "undercut_bid_picker$uc_sfx" "$UC_PICKER" $uc_args
    shot "undercut_summary$uc_sfx" "$UC_SUMMARY" $uc_args
    shot "undercut_scores$uc_sfx" "$UC_SCORES" $uc_args
    shot "undercut_winner$uc_sfx" "$UC_WINNER" $uc_args
done
