"""The per-address budgets (server/limits.py), alone and shared over Redis."""

from __future__ import annotations

import pytest

from colorclash.server.config import Settings
from colorclash.server.limits import (
    MISS_COST,
    NETWORK_SHARE,
    AddressLimits,
    SharedLimits,
    network_of,
    person_address,
)
from colorclash.server.protocol import ProtocolError

SETTINGS = Settings(limit_lookup_burst=10, limit_lookup_per_min=1)


def _guesses(limits: AddressLimits, address: str) -> int:
    """Misses (codes that do not exist) this address gets before it is refused."""
    n = 0
    while True:
        try:
            limits.take("lookup", address)
        except ProtocolError as exc:
            assert exc.code == "rate_limited" and exc.retry_after
            return n
        limits.charge("lookup", address, MISS_COST - 1)
        n += 1
        assert n < 10_000


def _homes(count: int) -> list[str]:
    """``count`` /64s of one IPv6 /48, as the limits see their addresses."""
    return [person_address(f"2001:db8:7:{i:x}::1") for i in range(count)]


def test_an_ipv6_48_guesses_no_more_than_sixteen_homes():
    """An address counts as its /64; a /48 holds 65,536 of them, so without a budget of
    its own one tunnel broker's /48 guessed 786,000 codes a minute."""
    assert network_of(person_address("2001:db8:7:5::9")) == "2001:db8:7::/48"
    assert network_of("198.51.100.7") is None  # IPv4 is counted per address only
    limits = AddressLimits(SETTINGS, clock=lambda: 0.0)
    one = _guesses(limits, _homes(1)[0])
    assert one == 2  # a burst of 10, a miss costs 5
    total = sum(_guesses(limits, home) for home in _homes(200))
    assert total <= NETWORK_SHARE["lookup"] * one
    with pytest.raises(ProtocolError, match="network"):
        limits.take("lookup", person_address("2001:db8:7:ffff::1"))
    # another /48, and IPv4, have their own budgets
    assert _guesses(limits, person_address("2001:db8:8::1")) == one
    assert _guesses(limits, "198.51.100.7") == one


@pytest.mark.parametrize("kind", ["create", "join", "queue"])
def test_an_ipv6_48_makes_no_more_rooms_than_sixteen_homes(kind):
    """Rooms, joins and Quick Match tickets were counted per /64 only: one /48 made 20
    rooms from each of its 65,536 homes."""
    settings = Settings(**{f"limit_{kind}_burst": 3, f"limit_{kind}_per_min": 1})
    limits = AddressLimits(settings, clock=lambda: 0.0)
    made = 0
    for home in _homes(100):
        for _ in range(3):
            try:
                limits.take(kind, home)
                made += 1
            except ProtocolError:
                break
    assert made == NETWORK_SHARE[kind] * 3
    limits.take(kind, person_address("2001:db8:8::1"))  # another /48 has its own


def _spend_without_debt(limits: AddressLimits, address: str) -> None:
    """An address that spent its budget on requests never refused (a Quick Match leave)
    and on misses: the requests never refused stop at zero, a miss's debt stands."""
    for _ in range(30):
        limits.charge("lookup", address, 1, debt=False)
    with pytest.raises(ProtocolError) as err:
        limits.take("lookup", address)
    assert err.value.retry_after == 60  # a minute for one token, not 30 minutes of debt
    limits.charge("lookup", address, MISS_COST - 1)  # a miss still goes into debt
    limits.charge("lookup", address, 1, debt=False)  # and a leave leaves the debt as it is
    with pytest.raises(ProtocolError) as err:
        limits.take("lookup", address)
    assert err.value.retry_after == 60 * MISS_COST


def test_a_charge_never_refused_spends_the_budget_but_runs_up_no_debt():
    """150 Quick Match leaves (never refused) took an address 60 below zero: its look-ups
    and joins were refused for two minutes (an attacker review)."""
    _spend_without_debt(AddressLimits(SETTINGS, clock=lambda: 0.0), "198.51.100.4")


def test_a_charge_never_refused_runs_up_no_debt_over_redis_either(redis_db):
    import redis

    r = redis.Redis.from_url(redis_db)
    try:
        _spend_without_debt(SharedLimits(SETTINGS, r, "cc:debt:"), "198.51.100.4")
    finally:
        r.close()


def test_the_network_budget_is_shared_over_redis(redis_db):
    import redis

    r = redis.Redis.from_url(redis_db)
    try:
        limits = SharedLimits(SETTINGS, r, "cc:test:")
        other_process = SharedLimits(SETTINGS, r, "cc:test:")
        homes = _homes(200)
        total = sum(_guesses(limits if i % 2 else other_process, home)
                    for i, home in enumerate(homes))
        assert 0 < total <= NETWORK_SHARE["lookup"] * 2
    finally:
        r.close()


def test_a_shared_bucket_is_not_emptied_by_the_redis_hosts_clock_stepping_back(redis_db):
    """A bucket's time is the Redis host's: stepped back 10 minutes, the time since its
    last use went negative and took 600 s of tokens away ("try again in 546 s" for a seat
    reconnecting: a time review). Time going back adds and takes nothing."""
    import redis

    r = redis.Redis.from_url(redis_db)
    try:
        limits = SharedLimits(Settings(limit_reconnect_burst=3, limit_reconnect_per_min=1),
                              r, "cc:step:")
        limits.take("reconnect", "198.51.100.9")
        key = "cc:step:limit:reconnect:198.51.100.9"
        later = float(r.hget(key, "ts")) + 600  # as the host sees it after the step
        r.hset(key, "ts", str(later))
        limits.take("reconnect", "198.51.100.9")
        limits.take("reconnect", "198.51.100.9")
        assert 0.0 <= float(r.hget(key, "tokens")) < 0.01  # (what a few ms brought back)
        assert r.pttl(key) < 200_000  # (kept as long as a full bucket takes, not 10 min more)
    finally:
        r.close()


def test_a_steady_guesser_pays_a_miss_in_full_however_long_it_goes_on():
    """A miss costs ``MISS_COST`` so that guessing runs dry that many times sooner; had the
    debt of a miss stopped at an empty bucket, a guess a second would go on for ever at
    full speed (600 in 10 minutes, not 132) and no test said so (a mutation review)."""
    now = [0.0]
    settings = Settings()
    limits = AddressLimits(settings, clock=lambda: now[0])
    burst, per_s = settings.limit_lookup_burst, settings.limit_lookup_per_min / 60
    accepted = 0
    for second in range(600):
        now[0] = float(second)
        try:
            limits.take("lookup", "198.51.100.7")
        except ProtocolError:
            continue
        limits.charge("lookup", "198.51.100.7", MISS_COST - 1)
        accepted += 1
    assert accepted <= (burst + per_s * 600) / MISS_COST + 1, accepted


def test_a_budget_left_alone_fills_up_to_its_burst_and_no_more():
    """(A bucket refilled past its burst let 61 look-ups through after a pause, not 51.)"""
    now = [0.0]
    settings = Settings(limit_lookup_burst=10, limit_lookup_per_min=60)
    limits = AddressLimits(settings, clock=lambda: now[0])

    def all_it_takes() -> int:
        taken = 0
        while taken < 100:
            try:
                limits.take("lookup", "198.51.100.7")
            except ProtocolError:
                return taken
            taken += 1
        return taken

    limits.take("lookup", "198.51.100.7")
    now[0] = 50.0  # 50 tokens' time, for a bucket that holds 10 (no sweep yet)
    assert all_it_takes() == 10
    now[0] = 100.0  # (past the minute's sweep, which forgets full buckets)
    assert all_it_takes() == 10
