Feature: The fabrication gate
  Numbers, dates, titles, employers and named technologies the model writes must trace to the
  profile facts the line cites.  Otherwise the attempt fails closed: ResumeFailed is raised with
  the reasons and the last accepted resume stays current.

  Background:
    Given a tailored resume was accepted for the job

  Scenario Outline: A fabricated <kind> is caught and the accepted resume is kept
    Given the model will add the bullet "<bullet>" to "exp-globex" citing "b-globex-1"
    When the resume is tailored
    Then the events raised are "ResumeFailed"
    And the attempt fails with a "fabricated_<kind>" error on "<token>"
    And the last accepted resume is kept

    Examples:
      | kind       | bullet                                                   | token              |
      | number     | Cut p99 checkout latency by 75% across 12 services.      | 75                 |
      | date       | Cut p99 checkout latency by 40% in 2017.                 | 2017               |
      | title      | As Principal Engineer, cut p99 checkout latency by 40%.  | Principal Engineer |
      | employer   | Cut p99 checkout latency by 40% for Umbrella Corp.       | Umbrella Corp      |
      | technology | Cut p99 checkout latency by 40% with Rust.               | Rust               |

  Scenario: A true fact from another job is not evidence for this line
    Given the model will add the bullet "Cut p99 checkout latency by 40% in Java." to "exp-globex" citing "b-globex-1"
    When the resume is tailored
    Then the attempt fails with a "fabricated_technology" error on "Java"

  Scenario: A summary number must trace to the sentence it cites
    Given the model will write the summary "Backend engineer with 12 years of experience building payment systems." citing "sum-1"
    When the resume is tailored
    Then the attempt fails with a "fabricated_number" error on "12"

  Scenario: A skill the profile does not list is caught
    Given the model will list the skills "Rust, Python" under "skills-lang"
    When the resume is tailored
    Then the attempt fails with a "fabricated_technology" error on "Rust"

  Scenario: A line citing a fact the profile does not have is refused
    Given the model will add the bullet "Cut p99 checkout latency by 40%." to "exp-globex" citing "b-made-up"
    When the resume is tailored
    Then the attempt fails with a "unknown_fact" error on "b-made-up"

  Scenario: A faithful paraphrase passes the gate
    Given the model will add the bullet "Reduced p99 checkout latency by 40 percent across twelve services." to "exp-globex" citing "b-globex-1"
    When the resume is tailored
    Then the events raised are "BulletProvenanceRecorded, ResumeApproved"
    And the resume is now generation 2
