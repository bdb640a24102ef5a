Feature: A job imported from its URL is prepared at once when a worker runs
  Importing a posting by its URL records the job, then starts its preparation the way every
  discovered job is prepared: a Discover run of its own that crawls no source, whose enrichment and
  preparation fan-out start the job's preparation workflow (spend preflight first). Everything is
  real: a jobctrl worker on the Temporal dev server, the HTTP API, and a local Workday stand-in.

  Scenario: the import starts the job's preparation through a Discover run of its own
    Given a JobCtrl home with a saved profile and a running jobctrl worker
    And the API on that home and the same Temporal server
    And a Workday stand-in serving 2 postings of "Acme Aerospace" as "acme/External"
    When the API is sent POST /v1/jobs/import-url for the stand-in's posting 2
    Then the answer says the job is new and its preparation started in a Discover run
    And that Discover run completes having crawled no source
    And the imported job is prepared: scored, with a tailored resume and a cover letter as PDFs
