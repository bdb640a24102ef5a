Feature: The requirement-fit formula
  Each requirement earns weight x tier multiplier (1.25 must-have, 1.0 nice-to-have) x fit value
  (direct 1.0, strong 0.85, transferable 0.6, otherwise 0).  The score is 1 + round-half-up(9 x the
  weighted fit), clamped to 1-10, and any blocked requirement caps it at 4.

  Scenario Outline: Scores follow the formula
    Given a ledger "<rows>"
    When the fit is computed
    Then the score is <score>

    Examples:
      | rows                                            | score |
      | must:2:direct:e1                                | 10    |
      | must:2:missing                                  | 1     |
      | must:1:strong:e1                                | 9     |
      | must:1:transferable:e1                          | 6     |
      | must:2:direct:e1,nice:1:transferable:e2         | 9     |
      | nice:1:direct:e1,nice:1:missing                 | 6     |
      | must:1:missing,nice:1:direct:e1                 | 5     |
      | must:3:direct:e1,nice:1:not_assessed            | 8     |

  Scenario: A blocked requirement caps an otherwise strong score at 4
    Given a ledger "must:3:direct:e1,must:3:direct:e2,nice:1:blocked"
    When the fit is computed
    Then the score is 4
    And the score was capped by a blocker

  Scenario: A matched requirement without evidence is refused
    Given a ledger "must:2:direct"
    When the fit is computed
    Then the ledger is refused with "invalid_score_ledger"

  Scenario: A transferable requirement without evidence is refused
    Given a ledger "must:2:transferable"
    When the fit is computed
    Then the ledger is refused with "invalid_score_ledger"

  Scenario: A posted salary can never block
    Given a ledger "must:2:direct:e1,nice:1:blocked:salary"
    When the fit is computed
    Then the ledger is refused with "invalid_score_ledger"
