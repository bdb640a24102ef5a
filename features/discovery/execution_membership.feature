Feature: Discover execution membership and work plans
  Each Discover execution (tenant, workflow id, Temporal run id) links every job once, in the
  observed_this_run or existing_backlog cohort, plans its work explicitly and closes membership.

  Scenario: an observation promotes a backlog member; nothing demotes it or links it twice
    Given a Discover execution "discover-daily" run "r-1"
    When jobs "j1,j2" are linked as existing_backlog
    And jobs "j1,j3" are linked as observed_this_run
    And jobs "j1,j3" are linked as existing_backlog
    Then the execution has members "j1:observed_this_run, j2:existing_backlog, j3:observed_this_run"
    And 3 DiscoveryExecutionMemberLinked and 1 DiscoveryExecutionMemberPromoted events were raised

  Scenario: a second run of the same workflow id is a different execution
    Given a Discover execution "discover-daily" run "r-1"
    When jobs "j1" are linked as observed_this_run
    And the Discover execution "discover-daily" run "r-2" links jobs "j1" as existing_backlog
    Then the execution has members "j1:observed_this_run"
    And the execution "discover-daily" run "r-2" has members "j1:existing_backlog"

  Scenario: work plans are explicit and a planned plan is immutable
    Given a Discover execution "discover-daily" run "r-1"
    When jobs "j1,j2,j3" are linked as observed_this_run
    And "j1" is planned with steps "score,tailor,cover" under child workflow "prep-abc"
    And "j2" is marked not eligible because "location_incompatible"
    And "j3" planning failed because "score_unavailable"
    Then the work plans are "j1:planned, j2:not_eligible, j3:failed"
    And planning "j1" again with steps "score" fails with "work_plan_conflict"
    And planning "j3" again with steps "score" under child workflow "prep-def" succeeds

  Scenario: a not-eligible reason is bounded to a safe code
    Given a Discover execution "discover-daily" run "r-1"
    When jobs "j1" are linked as observed_this_run
    And "j1" is marked not eligible because "Because <script>alert(1)</script>"
    Then the recorded reason of "j1" is "unclassified"

  Scenario: closed membership refuses new members
    Given a Discover execution "discover-daily" run "r-1"
    When jobs "j1" are linked as observed_this_run
    And membership is closed
    Then linking jobs "j9" as observed_this_run fails with "membership_closed"
    And a DiscoveryExecutionMembershipClosed event records 1 member

  Scenario: an interrupted execution closes its membership once, saying it was interrupted
    Given a Discover execution "discover-acme" run "r-1" of tenant "acme"
    When jobs "j1,j2" are linked as observed_this_run
    And the execution is interrupted because "reconciled_terminated"
    Then the interruption closed the membership
    And linking jobs "j9" as observed_this_run fails with "membership_closed"
    And a DiscoveryExecutionMembershipClosed event records 2 members under tenant "acme" for "interrupted_reconciled_terminated"
    And the members' plans stay "j1:pending, j2:pending"

  Scenario: a membership the terminal fan-out closed is left as it was by a later interruption
    Given a Discover execution "discover-daily" run "r-1"
    When jobs "j1" are linked as observed_this_run
    And membership is closed
    And the execution is interrupted because "canceled"
    Then the interruption recorded nothing
    And a DiscoveryExecutionMembershipClosed event records 1 member

  Scenario: an execution interrupted before it linked anyone is closed with no members
    Given a Discover execution "discover-acme" run "r-1" of tenant "acme"
    When the execution is interrupted because "canceled"
    Then the interruption closed the membership
    And a DiscoveryExecutionMembershipClosed event records 0 members under tenant "acme" for "interrupted_canceled"
