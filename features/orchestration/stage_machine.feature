Feature: The stage state machine
  Each job stage moves through exactly sixteen transitions.  Anything else is rejected with the
  current state, the attempted trigger and a reason, and the state does not change.

  Scenario Outline: Valid transition <row>
    Given a stage in state <from>
    When the trigger "<trigger>" is applied with <inputs>
    Then the stage is in state <expected>

    Examples:
      | row | from | trigger | inputs | expected |
      | 1  | {"kind":"Pending","attemptCount":0,"maxAttempts":5} | Enqueue | {"queuedAt":"T0"} | {"kind":"Queued","queuedAt":"T0"} |
      | 2  | {"kind":"Pending","attemptCount":1,"maxAttempts":5} | Start | {"startedAt":"T1"} | {"kind":"Running","attemptCount":2,"startedAt":"T1"} |
      | 3  | {"kind":"Pending","attemptCount":0,"maxAttempts":3} | Block | {"blockedBy":["enrich"],"errorCode":"MISSING_SCORE","errorMessage":"no fit"} | {"kind":"Blocked","blockedBy":["enrich"],"errorCode":"MISSING_SCORE","errorMessage":"no fit"} |
      | 4  | {"kind":"Pending","attemptCount":0,"maxAttempts":3} | Skip | {"reason":"low_score"} | {"kind":"Skipped","reason":"low_score"} |
      | 5  | {"kind":"Queued","queuedAt":"T0"} | Start | {"attemptCount":1,"startedAt":"T1"} | {"kind":"Running","attemptCount":1,"startedAt":"T1"} |
      | 6  | {"kind":"Queued","queuedAt":"T0"} | Cancel | {"canceledAt":"T2","reason":"user_aborted"} | {"kind":"Canceled","canceledAt":"T2","reason":"user_aborted"} |
      | 7  | {"kind":"Running","attemptCount":2,"startedAt":"T0"} | Complete | {"finishedAt":"T3","durationMs":30000} | {"kind":"Succeeded","attemptCount":2,"finishedAt":"T3","durationMs":30000} |
      | 8  | {"kind":"Running","attemptCount":1,"startedAt":"T0"} | Fail | {"maxAttempts":5,"errorCode":"TIMEOUT","errorMessage":"timed out","retryable":true} | {"kind":"Failed","attemptCount":1,"maxAttempts":5,"errorCode":"TIMEOUT","errorMessage":"timed out","retryable":true} |
      | 9  | {"kind":"Running","attemptCount":1,"startedAt":"T0"} | Cancel | {"canceledAt":"T2","reason":"shutdown"} | {"kind":"Canceled","canceledAt":"T2","reason":"shutdown"} |
      | 10a | {"kind":"Failed","attemptCount":2,"maxAttempts":5,"errorCode":"X","errorMessage":"m","retryable":true} | Reset | {"resetAttempts":false} | {"kind":"Pending","attemptCount":2,"maxAttempts":5} |
      | 10b | {"kind":"Failed","attemptCount":4,"maxAttempts":5,"errorCode":"X","errorMessage":"m","retryable":true} | Reset | {"resetAttempts":true} | {"kind":"Pending","attemptCount":0,"maxAttempts":5} |
      | 11 | {"kind":"Failed","attemptCount":5,"maxAttempts":5,"errorCode":"X","errorMessage":"m","retryable":false} | Exhaust | {"nextAction":"investigate"} | {"kind":"Exhausted","attemptCount":5,"maxAttempts":5,"errorCode":"X","errorMessage":"m","nextAction":"investigate"} |
      | 12 | {"kind":"Blocked","blockedBy":["enrich"],"errorCode":"B","errorMessage":"m"} | Unblock | {"attemptCount":0,"maxAttempts":3} | {"kind":"Pending","attemptCount":0,"maxAttempts":3} |
      | 13 | {"kind":"Exhausted","attemptCount":5,"maxAttempts":5,"errorCode":"X","errorMessage":"m"} | Reset | {} | {"kind":"Pending","attemptCount":0,"maxAttempts":5} |
      | 14 | {"kind":"Canceled","canceledAt":"T2","reason":"user"} | Reset | {"attemptCount":0,"maxAttempts":3} | {"kind":"Pending","attemptCount":0,"maxAttempts":3} |
      | 15 | {"kind":"Succeeded","attemptCount":1,"finishedAt":"T3","durationMs":1000} | MarkStale | {"reason":"profile_changed"} | {"kind":"Stale","reason":"profile_changed"} |
      | 16 | {"kind":"Stale","reason":"profile_changed"} | Reset | {"attemptCount":0,"maxAttempts":3} | {"kind":"Pending","attemptCount":0,"maxAttempts":3} |

  Scenario Outline: Rejected transition from <kind> by <trigger>
    Given a stage in state <from>
    When the trigger "<trigger>" is applied with {}
    Then the transition is rejected from <kind> by "<trigger>"

    Examples:
      | kind | from | trigger |
      | Succeeded | {"kind":"Succeeded","attemptCount":1,"finishedAt":"T","durationMs":1} | Reset |
      | Pending | {"kind":"Pending","attemptCount":0,"maxAttempts":3} | Complete |
      | Running | {"kind":"Running","attemptCount":1,"startedAt":"T"} | Block |
      | Skipped | {"kind":"Skipped","reason":"low_score"} | Reset |
      | Queued | {"kind":"Queued","queuedAt":"T"} | Complete |
      | Exhausted | {"kind":"Exhausted","attemptCount":5,"maxAttempts":5,"errorCode":"X","errorMessage":"m"} | Start |
      | NeedsVerification | {"kind":"NeedsVerification","reason":"submit_unconfirmed"} | Reset |

  Scenario: The machine has exactly sixteen transitions over eleven states and eleven triggers
    Then the transition table has 16 rows, 11 state kinds and 11 triggers
