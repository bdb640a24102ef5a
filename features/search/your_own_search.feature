Feature: Your own job search, by configuration
  A new user brings a resume, a company they want to work for and a model endpoint. On a fresh home
  they initialise the configuration, import their JSON Resume, add the company's board and run: the
  postings are discovered, their text goes to the configured model, and the jobs that fit are left
  scored with a tailored resume and a cover letter as PDFs.

  Background:
    Given a fresh JobCtrl home
    And Acme's Greenhouse board serves a backend and a frontend posting on a local port
    And an OpenAI-compatible model endpoint on a local port

  Scenario: From a fresh home to scored jobs and PDFs
    When I run "jobctrl init"
    And I run "jobctrl profile import resume.json"
    And I run "jobctrl sources add greenhouse acme --api-base {board}"
    And I run "jobctrl run" with JOBCTRL_LLM_PROVIDER=openai-compatible and JOBCTRL_LLM_BASE_URL at the endpoint
    Then every command exited 0
    And the model endpoint was sent the text of both postings
    And both postings are scored
    And the backend posting has a resume PDF and a cover letter PDF
    And the frontend posting, which does not fit, has no PDFs
    And the summary of the run names the backend posting and where its PDFs are
    When I run "jobctrl materials export {backend} out"
    Then "out" holds the backend posting's resume and cover letter, one "letter" page each, the paper "jobctrl init" configured
    And the first page of each renders to a portrait image and shows "Grace Hopper"
    And the cover letter is headed "Grace Hopper" with "grace@example.org · +44 20 7946 0018" from the profile, then a date

  Scenario: An invalid configuration is refused before anything starts
    Given the configuration file sets the LLM provider to "gpt"
    When I run "jobctrl run"
    Then it exits 2 naming "llm.provider"
    And nothing was written to the home but the configuration file

  Scenario: An invalid profile is refused and nothing is saved
    When I run "jobctrl init"
    And I run "jobctrl profile import bad-resume.json" where the first job has an unknown field "colour"
    Then it exits 2 naming "work.0.colour"
    And no profile was saved
