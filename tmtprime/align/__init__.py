"""Word-alignment models shared by the recommender's features and the Meteor scorer's resource builders.

IBM Model 1 (:mod:`tmtprime.align.ibm1`) scores a candidate's adequacy in
``tmtprime.features`` and word-aligns a bitext for Meteor's paraphrase
extraction; living here, below both, it keeps the scorer a leaf that imports
nothing of the recommender.
"""
