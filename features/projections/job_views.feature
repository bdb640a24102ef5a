Feature: Job, apply and contact views are folds of their contexts' events
  The Jobs list, the apply runs and the contacts are rebuilt from the log like every read model;
  they keep bounded, non-personal values only.

  Scenario: A job's list row shows discovery, enrichment and its score
    Given job "job-1" was discovered at "Acme" with title "Data Engineer"
    And job "job-1" was enriched with a long description
    And job "job-1" was scored 8 in version 2
    Then the list row of "job-1" shows "Data Engineer" at "Acme" scored 8
    And the description preview of "job-1" is at most 280 characters

  Scenario: An older score version never replaces a newer one
    Given job "job-1" was discovered at "Acme" with title "Data Engineer"
    And job "job-1" was scored 8 in version 2
    When job "job-1" was scored 3 in version 1
    Then the list row of "job-1" shows "Data Engineer" at "Acme" scored 8

  Scenario: The first result of an apply run wins and no recipient is stored
    Given apply run "apply-1" for job "job-1" started
    And apply run "apply-1" recorded an email candidate for "person@example.org"
    And apply run "apply-1" submitted the application
    When apply run "apply-1" failed
    Then apply run "apply-1" is "succeeded" with an email candidate
    And no read model holds "person@example.org"

  Scenario: A deleted contact leaves no row behind, even after a rebuild
    Given contact "c-1" was created at "Acme"
    And contact "c-1" was deleted
    When the read models are rebuilt
    Then there is no contact row for "c-1"

  Scenario: Deleting a contact removes its row
    Given contact "c-1" was created at "Acme"
    When contact "c-1" is deleted
    Then there is no contact row for "c-1"
