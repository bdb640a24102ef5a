"""A sample candidate profile and posting: the offline demo's input and the scenarios' fixture."""

from __future__ import annotations

from jobctrl.materials.domain.profile import CandidateProfile, TargetPosting

SAMPLE_PROFILE: dict[str, object] = {
    "version": 3,
    "name": "Ada Lovelace",
    "headline": "Backend engineer",
    "email": "ada@example.org",
    "location": "London",
    "summary": [
        {"id": "sum-1", "text": "Backend engineer with 8 years of experience building payment systems."},
        {"id": "sum-2", "text": "Enjoys mentoring and pragmatic architecture."},
    ],
    "experiences": [
        {
            "id": "exp-globex",
            "employer": "Globex",
            "title": "Senior Backend Engineer",
            "start": "2019-03",
            "end": None,
            "technologies": ["Python", "Kafka", "PostgreSQL"],
            "bullets": [
                {"id": "b-globex-1", "text": "Cut p99 checkout latency by 40% across 12 services."},
                {"id": "b-globex-2", "text": "Led the migration of the ledger to PostgreSQL."},
                {"id": "b-globex-3", "text": "Built Kafka pipelines moving $1,200,000 a day."},
            ],
        },
        {
            "id": "exp-initech",
            "employer": "Initech",
            "title": "Software Engineer",
            "start": "2016-01",
            "end": "2019-02",
            "technologies": ["Java"],
            "bullets": [
                {"id": "b-initech-1", "text": "Maintained billing services in Java for 3 product lines."},
            ],
        },
    ],
    "skills": [
        {"id": "skills-lang", "name": "Languages", "skills": ["Java", "Python", "SQL"]},
        {"id": "skills-infra", "name": "Infrastructure", "skills": ["Kafka", "PostgreSQL", "Docker"]},
    ],
    "education": [
        {"id": "edu-1", "institution": "University of London", "degree": "BSc Mathematics", "year": "2015"}
    ],
}


def sample_profile() -> CandidateProfile:
    return CandidateProfile.from_builtins(SAMPLE_PROFILE)


def sample_posting(job_id: str = "job-1") -> TargetPosting:
    return TargetPosting(
        job_id=job_id, role_title="Staff Platform Engineer", company="Hooli", keywords=["Kafka", "PostgreSQL"]
    )
