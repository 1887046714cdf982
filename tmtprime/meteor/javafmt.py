"""Numbers printed the way the Meteor 1.5 jar (Java 17) prints them.

Scripts written for the jar parse its output textually, so ``tmtprime meteor``
must print ``0.3630769230769232`` and ``1.0E-4`` exactly where the jar does.
Java's ``Double.toString`` uses plain decimal notation for magnitudes in
[1e-3, 1e7) and computerized scientific notation (``d.dddE-n``) otherwise,
always with at least one digit after the point; its digits are the shortest
that round-trip, which is what Python's ``repr`` gives.
"""

from __future__ import annotations

import math


def java_double(value: float) -> str:
    """``Double.toString(value)`` of Java."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0.0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    sign = "-" if value < 0 else ""
    magnitude = abs(value)
    digits, exponent = _shortest_digits(magnitude)
    if 1e-3 <= magnitude < 1e7:
        point = exponent + 1  # digits before the decimal point
        if point <= 0:
            return f"{sign}0.{'0' * -point}{digits}"
        if point >= len(digits):
            return f"{sign}{digits}{'0' * (point - len(digits))}.0"
        return f"{sign}{digits[:point]}.{digits[point:]}"
    mantissa = digits[0] + "." + (digits[1:] or "0")
    return f"{sign}{mantissa}E{exponent}"


def _shortest_digits(magnitude: float) -> tuple[str, int]:
    """Shortest round-trip significant digits and the decimal exponent of the first one."""
    text = repr(magnitude)
    if "e" in text or "E" in text:
        mant, _, exp = text.lower().partition("e")
        exponent = int(exp)
    else:
        mant, exponent = text, 0
    if "." in mant:
        whole, frac = mant.split(".")
    else:
        whole, frac = mant, ""
    all_digits = whole + frac
    exponent += len(whole) - 1
    stripped = all_digits.lstrip("0")
    exponent -= len(all_digits) - len(stripped)
    stripped = stripped.rstrip("0") or "0"
    return stripped, exponent
