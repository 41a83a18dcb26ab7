"""Decision quality: every discard, claim, passed claim and passed win of a hand judged by exact
engine computation (shanten, useful tiles, waits, legal wins). docs/decisions.md."""

from mjstats.decision.judge import (
    FLAGS,
    KINDS,
    Decision,
    DecisionColumns,
    hand_decision_columns,
    hand_decisions,
)

__all__ = ["FLAGS", "KINDS", "Decision", "DecisionColumns", "hand_decision_columns", "hand_decisions"]
