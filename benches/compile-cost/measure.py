#!/usr/bin/env python3
"""What an entity costs a user's build, against a serde-only struct.

Generates a scratch crate outside the workspace (under target/compile-cost)
that depends on this checkout's `ddb-entity` (no features) and serde, in
three variants of one file each:

- `base`:   the table declaration and nothing else (the fixed cost);
- `serde`:  N structs of 8 fields with `#[derive(Serialize, Deserialize)]`;
- `entity`: the same N structs, each also `#[derive(Entity)]` with a
            partition key, a sort key and one GSI.

For each variant it builds once (dependencies warm), then edits the file
(a changed constant, as a user's edit would) and rebuilds, best of
`--runs`, as `cargo build` does by default (debug, incremental). The
per-struct cost is (variant - base) / N; the ratio is entity over serde,
by the wall clock and by CPU time (cargo's and rustc's user + system).
It also prints the line count of the derive's `Order` expansion snapshot.

    python3 benches/compile-cost/measure.py [--n 40] [--runs 3]

Timings depend on the machine and its load: compare figures taken on one
machine, one after the other, and report the load (printed).

`--instructions` also counts the instructions of rustc's rebuild of each
variant under valgrind's callgrind (all its threads; cargo's own work left
out), which another build on the machine does not move: the figure to
attribute cost with, e.g. against a variant of the generated code pasted
in by hand. It takes about a minute more and needs valgrind.
"""

import argparse
import os
import pathlib
import re
import resource
import shlex
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
SNAPSHOT = ROOT / "ddb-entity-derive" / "snapshots" / "entity.rs"

TABLE = """
ddb_entity::table! {
    /// The scratch table.
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    }
}
"""

FIELDS = """    pub customer_id: u64,
    pub order_id: u32,
    pub email: String,
    pub status: String,
    pub total_cents: i64,
    pub note: Option<String>,
    pub quantity: u32,
    pub version: u64,
"""


def source(variant: str, n: int, edit: int) -> str:
    out = [
        "#![allow(missing_docs, dead_code, unused_imports)]",
        "use serde::{Deserialize, Serialize};",
        f"pub const EDIT: u32 = {edit};",
        TABLE,
    ]
    for i in range(n if variant != "base" else 0):
        if variant == "entity":
            out.append("#[derive(ddb_entity::Entity, Serialize, Deserialize, Debug, Clone)]")
            out.append(
                f'#[entity(table = App, pk = "C{i}#{{customer_id}}", sk = "O{i}#{{order_id}}")]'
            )
            out.append(f'#[entity(index = Gsi1, pk = "E{i}#{{email}}", sk = "{{order_id}}")]')
        else:
            out.append("#[derive(Serialize, Deserialize, Debug, Clone)]")
        out.append(f"pub struct S{i} {{\n{FIELDS}}}\n")
    return "\n".join(out) + "\n"


def manifest() -> str:
    path = (ROOT / "ddb-entity").as_posix()
    return f"""[package]
name = "compile-cost-scratch"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
ddb-entity = {{ path = "{path}", default-features = false }}
serde = {{ version = "1", features = ["derive"] }}
"""


def build(crate: pathlib.Path, env: dict) -> tuple:
    """Wall-clock and CPU (user + system, of cargo and rustc) seconds."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run(
        ["cargo", "build", "--quiet", "--offline"],
        cwd=crate,
        env=env,
        capture_output=True,
        text=True,
    )
    elapsed = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - used.ru_utime) + (after.ru_stime - used.ru_stime)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        raise SystemExit(f"cargo build failed in {crate}")
    return elapsed, cpu


def instructions(crate: pathlib.Path, env: dict, lib: pathlib.Path, text: str) -> int:
    """Instructions of rustc's incremental rebuild of `crate` after an edit
    of `text` (its `EDIT` constant), under callgrind."""
    lib.write_text(text.replace("pub const EDIT: u32 = ", "pub const EDIT: u32 = 1000 + "))
    done = subprocess.run(
        ["cargo", "build", "--verbose", "--offline"],
        cwd=crate,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        raise SystemExit(f"cargo build failed in {crate}")
    running = [
        line.split("Running `", 1)[1].rstrip("`")
        for line in done.stderr.splitlines()
        if "Running `" in line and "compile_cost_scratch" in line
    ]
    if not running:
        raise SystemExit("cargo did not rebuild the scratch crate")
    lib.write_text(text.replace("pub const EDIT: u32 = ", "pub const EDIT: u32 = 2000 + "))
    counted = subprocess.run(
        ["valgrind", "--tool=callgrind", "--cache-sim=no", "--callgrind-out-file=/dev/null"]
        + shlex.split(running[-1]),
        cwd=crate,
        env=env,
        capture_output=True,
        text=True,
    )
    found = re.search(r"Collected : (\d+)", counted.stderr)
    if counted.returncode != 0 or not found:
        sys.stderr.write(counted.stderr)
        raise SystemExit("callgrind failed")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=40, help="structs per variant")
    parser.add_argument("--runs", type=int, default=3, help="rebuilds, best taken")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count rustc's instructions per rebuild (valgrind callgrind)",
    )
    parser.add_argument(
        "--dir",
        default=str(ROOT / "target" / "compile-cost"),
        help="where the scratch crate and its target live",
    )
    args = parser.parse_args()

    work = pathlib.Path(args.dir)
    crate = work / "scratch"
    (crate / "src").mkdir(parents=True, exist_ok=True)
    (crate / "Cargo.toml").write_text(manifest())
    lock = ROOT / "Cargo.lock"
    if lock.exists() and not (crate / "Cargo.lock").exists():
        # The workspace's resolution: no registry look-up, the same versions.
        shutil.copy(lock, crate / "Cargo.lock")
    env = dict(os.environ)
    env["CARGO_TARGET_DIR"] = str(work / "target")
    env.pop("CARGO_INCREMENTAL", None)  # a user's default: incremental

    lib = crate / "src" / "lib.rs"
    best = {}
    cpu = {}
    counts = {}
    for variant in ("base", "serde", "entity"):
        lib.write_text(source(variant, args.n, 0))
        build(crate, env)  # warm: dependencies and the first expansion
        times = []
        for run in range(1, args.runs + 1):
            lib.write_text(source(variant, args.n, run))
            times.append(build(crate, env))
        best[variant] = min(wall for wall, _ in times)
        cpu[variant] = min(used for _, used in times)
        print(
            f"{variant:>6}: best {best[variant]:.2f} s of "
            + ", ".join(f"{wall:.2f}" for wall, _ in times)
            + f" (CPU best {cpu[variant]:.2f} s)",
            flush=True,
        )
        if args.instructions:
            counts[variant] = instructions(crate, env, lib, source(variant, args.n, 0))
            print(f"{variant:>6}: {counts[variant] / 1e9:.3f} G instructions (rustc)", flush=True)

    serde = (best["serde"] - best["base"]) / args.n
    entity = (best["entity"] - best["base"]) / args.n
    lines = sum(1 for _ in SNAPSHOT.open()) if SNAPSHOT.exists() else 0
    print(f"per struct, serde only:   {serde * 1000:.1f} ms")
    print(f"per entity (+serde):      {entity * 1000:.1f} ms")
    if serde > 0:
        print(f"ratio entity / serde:     {entity / serde:.2f}x")
    # CPU time is less sensitive to another build on the machine than the
    # wall clock (though not immune: shared cores run slower).
    serde_cpu = (cpu["serde"] - cpu["base"]) / args.n
    entity_cpu = (cpu["entity"] - cpu["base"]) / args.n
    if serde_cpu > 0:
        print(
            f"CPU ratio entity / serde: {entity_cpu / serde_cpu:.2f}x "
            f"({entity_cpu * 1000:.1f} ms against {serde_cpu * 1000:.1f} ms)"
        )
    if counts:
        serde_ins = (counts["serde"] - counts["base"]) / args.n
        entity_ins = (counts["entity"] - counts["base"]) / args.n
        print(
            f"instructions ratio:       {entity_ins / serde_ins:.2f}x "
            f"({entity_ins / 1e6:.1f} M against {serde_ins / 1e6:.1f} M per struct)"
        )
    print(f"Order expansion snapshot: {lines} lines ({SNAPSHOT.relative_to(ROOT)})")
    print(f"load average:             {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
