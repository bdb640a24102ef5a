Feature: Rendering PDFs
  Resumes and cover letters are rendered from HTML/CSS templates by the system Chromium, both on the
  paper size the user configured (`[materials] paper_size`: Letter unless A4 is asked for).  Only
  missing PDFs are rendered: a retry reuses the stored file and never renders or records it twice.

  Background:
    Given a tailored resume was accepted for the job

  Scenario: The resume renders as a Letter PDF by default
    When the resume PDF is rendered
    Then the events raised are "PdfRendered"
    And the stored PDF is a "letter" page titled "Resume of Ada Lovelace"
    And the PDF reads "Senior Backend Engineer — Globex" and "Led the migration of the ledger to PostgreSQL."

  Scenario: The cover letter renders as a Letter PDF by default
    Given a cover letter was written for the job
    When the cover letter PDF is rendered
    Then the events raised are "PdfRendered"
    And the stored PDF is a "letter" page titled "Cover letter of Ada Lovelace for Staff Platform Engineer at Hooli"
    And the PDF reads "Dear Hooli hiring team," and "Sincerely,"

  Scenario: The cover letter is dated and headed with the candidate's contact
    Given today is "2026-12-01"
    And the candidate's profile gives the phone "+44 20 7946 0000" and the link "https://github.com/ada"
    And a cover letter was written for the job
    When the cover letter PDF is rendered
    Then the PDF opens with the lines "Ada Lovelace", "ada@example.org · +44 20 7946 0000 · London", "https://github.com/ada" and "December 1, 2026"
    And the PDF reads "Dear Hooli hiring team," and "Sincerely,"

  Scenario Outline: The resume and the cover letter share the configured paper size
    Given a cover letter was written for the job
    When both PDFs are rendered on "<paper>" paper
    Then both stored PDFs are one "<paper>" page each

    Examples:
      | paper  |
      | letter |
      | a4     |

  Scenario: Another paper size is another PDF, rendered anew
    Given the resume PDF was rendered
    When the resume PDF is rendered on "a4" paper
    Then the events raised are "PdfRendered"
    And the stored PDF is a "a4" page titled "Resume of Ada Lovelace"

  Scenario: Rendering again reuses the PDF
    Given the resume PDF was rendered
    When the resume PDF is rendered
    Then no event is raised
    And Chromium rendered nothing

  Scenario: A PDF stored before a crash is reused, not rendered again
    Given the resume PDF was stored but its event was never recorded
    When the resume PDF is rendered
    Then the events raised are "PdfRendered"
    And Chromium rendered nothing

  Scenario: A tampered PDF is refused
    Given the resume PDF was rendered
    And the stored resume PDF was altered on disk
    When the resume PDF is rendered
    Then the request is refused as "artifact_digest_mismatch"
    And no event is raised

  Scenario: A tampered resume is never rendered
    Given the stored resume was altered on disk
    When the resume PDF is rendered
    Then the request is refused as "artifact_digest_mismatch"
    And no event is raised
    And Chromium rendered nothing
