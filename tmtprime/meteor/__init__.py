"""A complete Meteor scorer, drop-in compatible with the reference Meteor 1.5.

Normalizer, resources, matchers (exact, stem, synonym, paraphrase), the
beam-search aligner, statistics and scoring, task parameter sets, and the
Meteor++ / Meteor++ 2.0 extensions. A leaf library: it imports nothing else
from tmtprime except errors and paths.
"""
