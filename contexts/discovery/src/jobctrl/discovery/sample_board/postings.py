"""Deterministic sample postings: employers, roles and descriptions built from fixed tables.

No randomness and no downloads: the same board every time.  Two Northwind postings also appear on
Northwind's own career page (one word for word, one lightly edited) so dedupe has work to do.  The
backend role (the one the demo's sample profile fits) differs from board to board in title and in the
order and choice of its skills, so each fitting job's tailored resume differs too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from jobctrl.discovery.events import AtsKind


@dataclass(frozen=True, slots=True)
class SamplePosting:
    format: str  # greenhouse | lever | ashby | other (JSON-LD career page) | workday | smartrecruiters
    board: str
    employer: str
    native_id: str
    slug: str
    title: str
    location: str
    department: str
    description: str


@dataclass(frozen=True, slots=True)
class _Role:
    title: str
    department: str
    duties: tuple[str, ...]
    skills: tuple[str, ...]


ROLES: tuple[_Role, ...] = (
    _Role(
        "Senior Backend Engineer",
        "Engineering",
        (
            "design and operate the event ingestion services that receive millions of records every hour",
            "own the PostgreSQL schema migrations and the query plans behind our busiest endpoints",
            "pair with product managers to turn ambiguous customer problems into small shippable slices",
        ),
        ("Python", "PostgreSQL", "Kafka", "Kubernetes"),
    ),
    _Role(
        "Staff Data Engineer",
        "Data",
        (
            "build batch and streaming pipelines that feed the analytics warehouse and the billing ledger",
            "define data contracts with upstream teams and enforce them with automated checks",
            "mentor engineers on dbt modelling, partitioning strategy and cost control",
        ),
        ("SQL", "dbt", "Airflow", "Spark"),
    ),
    _Role(
        "Frontend Engineer",
        "Engineering",
        (
            "ship accessible interfaces in React and TypeScript for our operator console",
            "work with designers on a component library used by four product squads",
            "profile rendering performance and keep the bundle budget honest",
        ),
        ("TypeScript", "React", "CSS", "Playwright"),
    ),
    _Role(
        "Site Reliability Engineer",
        "Infrastructure",
        (
            "run the on-call rotation for the control plane and write blameless incident reviews",
            "codify infrastructure in Terraform and retire hand-built servers one by one",
            "set service level objectives with product teams and alert on what users feel",
        ),
        ("Terraform", "Linux", "Prometheus", "Go"),
    ),
    _Role(
        "Machine Learning Engineer",
        "Research",
        (
            "train and evaluate ranking models that decide what millions of users see first",
            "turn research notebooks into reproducible training jobs with tracked lineage",
            "build offline evaluation suites that catch regressions before they reach production",
        ),
        ("PyTorch", "Python", "feature stores", "A/B testing"),
    ),
    _Role(
        "Product Designer",
        "Design",
        (
            "lead discovery interviews and synthesise them into journey maps the whole team can use",
            "prototype flows in Figma and validate them with moderated usability sessions",
            "own the interaction patterns of our mobile onboarding from first tap to activation",
        ),
        ("Figma", "user research", "prototyping", "design systems"),
    ),
    _Role(
        "Engineering Manager, Platform",
        "Engineering",
        (
            "grow a team of seven platform engineers through regular coaching and clear expectations",
            "plan the quarterly roadmap for build tooling, deployment and developer experience",
            "partner with security and finance on capacity planning and vendor decisions",
        ),
        ("people management", "Kubernetes", "CI/CD", "budgeting"),
    ),
    _Role(
        "Security Engineer",
        "Security",
        (
            "threat-model new features with product teams before the first line of code is written",
            "run the vulnerability management programme and triage reports from our bug bounty",
            "harden identity and access management across cloud accounts and internal tools",
        ),
        ("AWS IAM", "threat modelling", "Python", "SIEM"),
    ),
)

# The backend role as each board of ``BOARDS`` words it (by board index): its title and skills, the
# first two being the posting's requirements and the last two its nice-to-haves.
BACKEND_VARIANTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Senior Backend Engineer", ("Python", "PostgreSQL", "Kafka", "Kubernetes")),
    ("Backend Engineer, Payments", ("Kafka", "Java", "Docker", "Terraform")),
    ("Senior Software Engineer, Ledger", ("PostgreSQL", "SQL", "Java", "Kafka")),
    ("Java Backend Engineer", ("Java", "Kafka", "SQL", "Docker")),
    ("Backend Engineer, Data Platform", ("Kafka", "SQL", "Python", "Airflow")),
    ("Senior Python Engineer", ("Python", "Docker", "PostgreSQL", "Kubernetes")),
    ("Backend Engineer, Billing", ("Java", "PostgreSQL", "Python", "Terraform")),
    ("Staff Backend Engineer", ("SQL", "PostgreSQL", "Java", "Airflow")),
    ("Backend Engineer, Flight Data", ("Docker", "Python", "SQL", "Kafka")),
    ("Senior Backend Engineer, Bookings", ("PostgreSQL", "Kafka", "Python", "Java")),
)


def _board_role(role: _Role, b_index: int) -> _Role:
    if role is not ROLES[0]:
        return role
    title, skills = BACKEND_VARIANTS[b_index % len(BACKEND_VARIANTS)]
    return replace(role, title=title, skills=skills)


LOCATIONS = (
    "Remote - US",
    "Berlin, Germany",
    "London, UK",
    "New York, NY",
    "Remote - Europe",
    "Toronto, Canada",
)

# (format, board, employer, count, blurb)
BOARDS: tuple[tuple[str, str, str, int, str], ...] = (
    (
        "greenhouse",
        "northwind",
        "Northwind Analytics",
        8,
        "helps retailers forecast demand across thousands of stores",
    ),
    (
        "greenhouse",
        "globex",
        "Globex Corporation",
        8,
        "builds logistics software for ports and rail freight operators",
    ),
    ("lever", "initech", "Initech", 7, "modernises payroll and expense reporting for mid-sized companies"),
    ("lever", "umbrella", "Umbrella Health", 7, "runs a clinical trial platform used by research hospitals"),
    ("ashby", "hooli", "Hooli", 7, "makes collaboration software for distributed engineering teams"),
    ("ashby", "piedpiper", "Pied Piper", 7, "develops compression technology for video streaming at scale"),
    ("other", "acme", "Acme Robotics", 6, "designs warehouse robots that work safely beside people"),
    ("other", "contoso", "Contoso Energy", 6, "operates a network of community solar farms"),
    ("workday", "fabrikam", "Fabrikam Aerospace", 6, "builds flight-planning software for regional airlines"),
    ("smartrecruiters", "tailspin", "Tailspin Travel", 5, "books group travel for schools and sports clubs"),
)


def describe(employer: str, blurb: str, role: _Role, location: str, seq: int) -> str:
    duties = " ".join(f"You will {d}." for d in role.duties)
    skills = ", ".join(role.skills)
    return (
        f"{employer} {blurb}. We are hiring a {role.title} for our {role.department} group, "
        f"based in {location}. "
        f"{duties} "
        f"We look for someone with several years of hands-on experience with {skills}, who writes clearly "
        f"and enjoys reviewing code with care. Requirements: strong experience with {role.skills[0]} and "
        f"{role.skills[1]}; nice to have: {role.skills[2]} and {role.skills[3]}. "
        f"Reference number {employer[:3].upper()}-{seq:04d}. "
        f"The team at {employer} works in small groups with a lot of autonomy and a weekly demo day."
    )


def _native_id(fmt: str, board: str, seq: int) -> str:
    if fmt == "greenhouse":
        return str(4_000_000 + seq)
    if fmt == "smartrecruiters":
        return str(744_000_000_000 + seq)  # SmartRecruiters posting ids are long numbers
    if fmt == "workday":
        return f"R{seq:06d}"  # a Workday requisition id
    return f"{board}-{seq}"


def _postings() -> list[SamplePosting]:
    out: list[SamplePosting] = []
    for b_index, (fmt, board, employer, count, blurb) in enumerate(BOARDS):
        for i in range(count):
            role = _board_role(ROLES[(i + b_index) % len(ROLES)], b_index)
            location = LOCATIONS[(i * 5 + b_index) % len(LOCATIONS)]
            seq = 1000 + b_index * 100 + i
            slug = f"{role.title.lower().replace(',', '').replace(' ', '-')}-{seq}"
            if fmt == "other" and board == "contoso" and i == 5:
                slug = f"internal-{slug}"  # robots.txt disallows /careers/contoso/jobs/internal-
            out.append(
                SamplePosting(
                    format=fmt,
                    board=board,
                    employer=employer,
                    native_id=_native_id(fmt, board, seq),
                    slug=slug,
                    title=role.title,
                    location=location,
                    department=role.department,
                    description=describe(employer, blurb, role, location, seq),
                )
            )
    # Cross-posted duplicates on Northwind's own career page.
    originals = [p for p in out if p.board == "northwind"][:2]
    exact, edited = originals
    out.append(
        SamplePosting(
            "other",
            "northwind",
            exact.employer,
            f"nw-site-{exact.native_id}",
            exact.slug,
            exact.title,
            exact.location,
            exact.department,
            exact.description,
        )
    )
    out.append(
        SamplePosting(
            "other",
            "northwind",
            edited.employer,
            f"nw-site-{edited.native_id}",
            edited.slug,
            edited.title,
            edited.location,
            edited.department,
            edited.description.replace("weekly demo day", "weekly demo day and a monthly hack day"),
        )
    )
    return out


SAMPLE_POSTINGS: tuple[SamplePosting, ...] = tuple(_postings())

# Synthetic employers for a larger board: one board each, at most one posting per role, so no two of
# their postings are the same job by content (dedupe compares descriptions within one employer).
_NAMES = (
    "Aster", "Beacon", "Cobalt", "Driftwood", "Ember", "Fjord", "Granite", "Harbor", "Ironbark",
    "Juniper", "Kestrel", "Lumen", "Meridian", "Nimbus", "Orchard", "Quartz", "Redwood", "Saltmarsh",
    "Tidal", "Vertex", "Willow", "Yarrow", "Zephyr", "Alder", "Basalt",
)  # fmt: skip
_KINDS: tuple[tuple[str, str], ...] = (
    ("Labs", "builds developer tools for teams that ship several times a day"),
    ("Systems", "makes scheduling software for hospitals and clinics"),
    ("Logistics", "plans last-mile delivery routes for grocery chains"),
    ("Energy", "balances battery storage across regional power grids"),
    ("Finance", "runs a ledger platform for small business lending"),
    ("Robotics", "builds inspection drones for bridges and wind turbines"),
    ("Media", "streams live sports to fans in forty countries"),
    ("Health", "connects patients with physiotherapists for remote care"),
)
_FORMATS: tuple[AtsKind, ...] = ("greenhouse", "lever", "ashby", "other")
MAX_SCALED_POSTINGS = len(SAMPLE_POSTINGS) + len(_NAMES) * len(_KINDS) * len(ROLES)


def scaled_postings(total: int) -> tuple[SamplePosting, ...]:
    """The sample postings, then synthetic employers' postings, ``total`` postings in all.

    Deterministic like the sample itself.  Every synthetic employer has its own board (formats in
    turn) and at most one posting per role, so every synthetic posting is a distinct job.
    """
    if not len(SAMPLE_POSTINGS) <= total <= MAX_SCALED_POSTINGS:
        raise ValueError(
            f"a scaled sample board holds {len(SAMPLE_POSTINGS)} to {MAX_SCALED_POSTINGS} postings, "
            f"not {total}"
        )
    out = list(SAMPLE_POSTINGS)
    employer_index = 0
    while len(out) < total:
        name = _NAMES[employer_index % len(_NAMES)]
        kind, blurb = _KINDS[employer_index // len(_NAMES)]
        employer = f"{name} {kind}"
        board = f"{name}{kind}".lower()
        fmt = _FORMATS[employer_index % len(_FORMATS)]
        for i in range(min(len(ROLES), total - len(out))):
            role = ROLES[(i + employer_index) % len(ROLES)]
            location = LOCATIONS[(i + employer_index) % len(LOCATIONS)]
            seq = 10_000 + employer_index * 10 + i
            slug = f"{role.title.lower().replace(',', '').replace(' ', '-')}-{seq}"
            out.append(
                SamplePosting(
                    format=fmt,
                    board=board,
                    employer=employer,
                    native_id=str(4_000_000 + seq) if fmt == "greenhouse" else f"{board}-{seq}",
                    slug=slug,
                    title=role.title,
                    location=location,
                    department=role.department,
                    description=describe(employer, blurb, role, location, seq),
                )
            )
        employer_index += 1
    return tuple(out)


# Postings that are the same job as another posting (not new jobs when both are crawled).
CROSS_POSTED_DUPLICATES = 2
DISALLOWED_PREFIX = "/careers/contoso/jobs/internal-"
