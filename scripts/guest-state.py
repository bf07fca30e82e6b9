#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""guest-state.py FILE: runs inside the VM (guest-tests.sh), after each
selftest program, as netdev's CI checks its runners' state. Collects what
a program must leave as it found it, for every link of the VM's network
namespace: the link (ip -d link), its channels, features, rings, RSS
(the key aside) and ntuple filters (ethtool), and the netdev family's
device, page pools, queues and NAPI instances (the ids, IRQs and
in-flight counts aside). Page pools still detached after 60 s count:
that is a leak. When FILE exists, the state is compared with it, every
difference is printed, and the exit status is 1 if there was one other
than a link's carrier coming or going; the state is then saved to FILE
for the next program. KSELFTEST names the installed selftests (their
YNL library reads the netdev family)."""

import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.environ.get("KSELFTEST", "."), "drivers/net"))
# pylint: disable=wrong-import-position,import-error,invalid-name
from lib.py import NetdevFamily, NlError

VOLATILE = {"id", "napi-id", "irq", "inflight", "inflight-mem"}


def run(argv, as_json=True):
    """A command's output (parsed JSON, a one-element list unwrapped), or
    what it said on failure."""
    p = subprocess.run(argv, capture_output=True, text=True, check=False)
    if p.returncode:
        return {"error": p.stderr.strip()}
    if not as_json:
        return p.stdout
    out = json.loads(p.stdout)
    return out[0] if isinstance(out, list) and len(out) == 1 else out


def strip(obj):
    """obj without the attributes that differ from run to run."""
    if isinstance(obj, list):
        return [strip(o) for o in obj]
    if isinstance(obj, dict):
        return {k: v for k, v in obj.items() if k not in VOLATILE}
    return obj


def netdev(nf, op, ifindex):
    """The netdev family's answer to op for one device (dump ops filtered
    on the device), stripped."""
    try:
        if op == "dev":
            return strip(nf.dev_get({"ifindex": ifindex}))
        if op == "page_pool":  # the request names no device
            return strip([p for p in nf.page_pool_get({}, dump=True)
                          if p.get("ifindex") == ifindex])
        return strip(getattr(nf, f"{op}_get")({"ifindex": ifindex},
                                              dump=True))
    except NlError as e:
        return {"error": str(e)}


def collect(nf):
    """The state, as a dict of dicts: kind -> link name -> value."""
    deadline = time.time() + 60
    while time.time() < deadline:
        pools = nf.page_pool_get({}, dump=True)
        if not any("detach-time" in p for p in pools):
            break
        time.sleep(1)
    state = {}
    links = run(["ip", "-j", "-d", "link", "show"])
    for link in links if isinstance(links, list) else [links]:
        name, ifindex = link["ifname"], link["ifindex"]
        state.setdefault("link", {})[name] = link
        for kind, opt in (("channels", "-l"), ("features", "-k"),
                          ("rings", "-g"), ("rss", "-x")):
            state.setdefault(kind, {})[name] = run(["ethtool", "-j", opt, name])
        if isinstance(state["rss"][name], dict):
            state["rss"][name].pop("rss-hash-key", None)
        state.setdefault("ntuple", {})[name] = run(["ethtool", "-n", name],
                                                   as_json=False)
        for op in ("dev", "page_pool", "queue", "napi"):
            state.setdefault(op, {})[name] = netdev(nf, op, ifindex)
    return state


def carrier_only(path, old, new):
    """Whether a difference is a link's carrier (not the program's doing)."""
    if not path.startswith(".link."):
        return False
    if path.endswith(".operstate"):
        return True
    if path.endswith(".flags"):
        return not (set(old) ^ set(new)) - {"NO-CARRIER", "LOWER_UP"}
    return False


def compare(old, new, path=""):
    """Print the differences; True if one of them counts."""
    if isinstance(old, dict) and isinstance(new, dict):
        bad = False
        for k in sorted(old.keys() | new.keys(), key=str):
            if k in old and k in new:
                bad |= compare(old[k], new[k], f"{path}.{k}")
            else:
                print(f"{path}.{k}: was {old.get(k)!r}, is {new.get(k)!r}")
                bad = True
        return bad
    if old == new:
        return False
    print(f"{path}: was {old!r}, is {new!r}")
    return not carrier_only(path, old, new)


def plain(obj):
    """What JSON keeps of a value YNL gives that JSON has no type for: a
    set sorted, anything else as text."""
    return sorted(obj, key=str) if isinstance(obj, (set, frozenset)) else str(obj)


def main():
    """Collect, compare with FILE if there, save to FILE."""
    saved = sys.argv[1]
    # as saved: what JSON keeps of it (lists, strings)
    state = json.loads(json.dumps(collect(NetdevFamily()), default=plain))
    bad = False
    if os.path.exists(saved):
        with open(saved, encoding="utf-8") as f:
            bad = compare(json.load(f), state)
    with open(saved, "w", encoding="utf-8") as f:
        json.dump(state, f, indent=1, sort_keys=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
