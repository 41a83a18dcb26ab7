"""Rule sets, one package per ruleset (mjstats.rulesets.<name>): engine, profiles, settlement, CLI."""
