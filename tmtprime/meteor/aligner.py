"""Alignment selection: from all candidate matches to the jar's alignment.

The papers state the goal (each word in at most one match; most covered
words; fewest chunks; smallest distance). The jar reaches it with a beam
search whose details decide which of several plausible alignments wins, and
they show in scores, so they were reconstructed by black-box runs of the jar
(``-writeAlignments`` and its ``Matcher`` tool, at beam sizes 1 to 40, on
thousands of crafted pairs, crafted paraphrase tables and real MT output):

1. identical token sequences (when ``exact`` is a module) align word by word;
2. a candidate whose every word (on both sides) has no other candidate is
   *fixed*: it is in every alignment;
3. the remaining candidates are searched position by position over the
   **reference**; at each position a path takes one of the candidates starting
   there (earlier module first, then in the matcher's order: paraphrases
   found from the reference phrase first, in the order the table lists that
   phrase's paraphrases, then by hypothesis position), if its words are
   still free, or skips; chunks are counted as matches are appended in
   reference order; paths are kept in a ``java.util.PriorityQueue``-ordered
   beam and the best one at the end wins;
4. paths are ranked by: more *strength*, fewer chunks, fewer *shadowed*
   matches (rule 5), more covered words, fewer matches of nonzero strength
   (where strength and coverage tie, one phrase rather than a shorter phrase
   plus an exact match; 2,820 -> 2,834 of 3,000 WMT22 alignments), then
   non-exact matches module by module (more stem matches first, then
   synonym, then paraphrase; exact matches are not counted there, their
   strength already is). So a one-word paraphrase plus the exact match after
   it ties with the phrase that merges them, and the one offered first wins
   (rule 7): ``x p t`` / ``a t`` with ``p`` -> ``a`` and ``a t`` -> ``p t``
   (found from the reference phrase, so offered first) keeps ``p t`` = ``a
   t``, with ``a`` -> ``p`` and ``p t`` -> ``a t`` it keeps ``p`` = ``a``
   plus ``t`` = ``t`` (24 jar-checked placements and listings; alignment
   identity with all modules 2,866 -> 2,870 of 3,000). An
   exact match has strength 1 and any other match ``(hl // 2 + rl // 2) / 2``:
   a single-word non-exact match 0, a one-word-to-two-words phrase 1/2,
   ``a b`` = ``c d`` 1, ``a b`` = ``c d e f`` 3/2. A single-word
   non-exact match therefore never makes a path better by itself: an
   ambiguous one that would open a chunk of its own is dropped (``cars`` /
   ``car car`` has no match, nor ``car`` / ``automobile`` when synonym and
   paraphrase both propose it), while one that extends a chunk is kept
   (``x cars`` / ``x car car``). A one-word-to-phrase paraphrase beats nothing
   but loses to an exact match (``c`` / ``c a b`` with ``c`` -> ``a b``
   keeps ``c`` = ``c``), while a phrase-to-phrase one beats it (``the fund`` /
   ``a fund`` keeps the phrase), and two one-to-phrase ones tie with it and
   win on coverage. Long phrases weigh more: ``from the bottom of my heart`` /
   ``with all my heart`` (strength 5/2) beats ``my`` = ``my`` plus ``heart`` =
   ``heart`` (2), while ``a b c d e`` / ``a b x d e`` (2) loses to its four
   exact matches. The halving (odd lengths round down) reproduces the jar on
   crafted tables: ``p`` / ``x q r s`` with ``p`` -> ``q r`` and ``p`` ->
   ``q r s`` ties (rule 5 keeps ``q r``), while ``q r s t`` beats ``q r s``.
   Where a phrase ties with a shorter phrase plus an exact match, rule 4's
   fewer-matches field keeps the phrase: ``as well as the`` / ``like the``
   with ``as well as`` -> ``like`` and ``as well as the`` -> ``like the``
   (72 jar-checked cases: 1-3 words a side, the exact word before or after,
   four placements; 48 before this field). Measured on
   WMT22 sentences: alignment identity 2,721 -> 2,820 of 3,000 (a strength of
   1 per phrase before, plus a field counting phrases of two or more words on
   both sides, which this replaces);
5. *shadowed* candidates lose to a sibling starting at the same place in both
   sentences (a *strong* candidate is exact or a phrase of more than one word
   on either side, a *solid* one a phrase of more than one word on both): off the diagonal (``hs != rs``) a strong candidate with fewer
   words shadows the longer strong ones of its module or a later one starting
   there and offered after it (rule 3), whatever their length (``a b c`` /
   ``x a d e`` with ``a b c`` -> ``a d e`` keeps ``a`` = ``a``, unless the
   phrase saves a chunk; ``p`` / ``x q r s`` with ``p`` -> ``q r`` and ``p``
   -> ``q r s`` keeps ``q r``, with ``p`` -> ``q r s`` listed first ``q r
   s``; an exact sibling's shadow of a contested phrase counts only below
   coverage, rule 15). A longer sibling offered first is not shadowed, and the tie goes to
   it: ``p o`` / ``n i m u`` with ``p`` -> ``i m u`` and ``p o`` -> ``i``
   keeps ``p`` = ``i m u`` (found from the shorter hypothesis phrase, so
   offered first) in either listing order, and ``p o`` = ``i`` only when
   ``i -> p o`` is listed (found from the reference phrase); real text:
   ``consists of`` / ``nation is made up`` keeps ``consists`` = ``is made
   up`` (15 jar-checked tables; alignment identity with all modules 2,874 ->
   2,875 of 3,000, nothing lost). And only a sibling with fewer *reference*
   words shadows: ``x a lot of w`` / ``much w`` with ``a lot``, ``a lot of``
   and ``lot of`` -> ``much`` keeps ``a lot of`` (24 jar-checked listings
   and placements; alignment identity 2,881 -> 2,885). An exact match off the diagonal also
   shadows the phrases starting at its reference word whose hypothesis span
   holds its hypothesis word further in: ``x y`` / ``y z``, ``w x y`` / ``y
   z``, ``x y`` / ``y z w``, ``x y q`` / ``y z`` keep ``y`` = ``y`` rather
   than the phrase ``x y`` = ``y z`` (or its longer variants), and ``in
   china`` / ``china has`` keeps ``china`` = ``china``; not on the diagonal
   (``x y`` / ``w y z`` keeps the phrase), and not where the phrase's first
   hypothesis word has a single-word non-exact candidate (with ``x`` -> ``z``
   listed too, ``x y`` / ``y z`` keeps the phrase). 21 jar-checked tables;
   alignment identity with all modules 2,875 -> 2,881 of 3,000, nothing
   lost; ``q x y`` / ``y z`` with ``q x`` -> ``y z`` (no containment) the jar
   keeps ``y`` = ``y`` too, which this does not model. On the
   diagonal a solid paraphrase shadows the
   single-word non-exact candidates starting there (``luck in`` / ``success
   in`` keeps the phrase, while ``to know`` / ``to experience`` keeps ``to`` =
   ``to`` plus the synonym ``know`` = ``experience``);
6. *diagonal detours*: a match starting at the same index in both sentences
   (``hs == rs``) whose first reference word no other candidate covers, while
   its first hypothesis word has other candidates, loses every tie where it
   would open a chunk. So a word goes to its first *off-diagonal* placement:
   ``a`` / ``a a`` -> 0-1, ``x a`` / ``y a a`` -> 1-2, ``h h a`` / ``r a r a``
   -> 2-1 (not 2-3), ``a b`` / ``a b x a b`` -> 0-3 1-4, ``e`` / ``f g f g``
   with ``e`` -> ``f g`` -> 0-2; but ``a a`` / ``a`` -> 0-0 (the reference
   word has two candidates), ``a`` / ``b a a`` -> 0-1, and ``options de diff``
   / ``options de renommage de diff`` keeps ``de`` at 1-1, where it extends
   the chunk ``options``. Measured: it fixes ~60 % of the tie differences on
   random 2-7 word pairs and 22 of 84 on WMT22 sentences. A run of two or
   more exact matches on the diagonal stays, though, where its next exact
   copy further on in the reference comes after another placement of one of
   its words: ``a b`` / ``a b b a b``, ``a b`` / ``a b a x a b``, ``a b c`` /
   ``a b c x b a b c`` keep the diagonal, while ``a b`` / ``a b x a b b``
   (the other ``b`` after the copy) and ``a b z`` / ``a b x z a b`` (``z`` is
   not in the run) move, and a one-word run moves whatever lies between
   (``a x`` / ``a c x a`` -> 0-3). 36 crafted pairs jar-checked at beam 40
   (19 before); 4,711 of 4,900 small exact pairs at beam 40 (4,701 before:
   10 fixed, none lost), 290 of 290 earlier jar facts (288); no bench segment
   score moves;
7. when a position yields more children than the beam holds, the survivors are
   the first ``beam`` polls of a binary heap filled in offer order and
   comparing ranks only (``java.util.PriorityQueue``), not the first ``beam``
   in a stable order: among equal ranks the heap's sift-up/sift-down decides.
   With ``-x 4``, ``a b`` / ``b a a b`` -> 0-2 1-3 (one chunk) is found only
   so. On long segments this is what lets the jar reach alignments with
   fewer chunks than a stable beam (WMT22 ``-m exact``: 10 -> 6 segment
   scores off). The survivors then keep their offer order (they are not
   re-sorted by rank), and the alignment is the first best path in that
   order (Spanish ``exact stem``: 20 -> 18 segment scores off, French final
   diff 8.4e-4 -> 7.5e-4, the other configurations unchanged);
8. *weak extensions of a word moved nearer the diagonal*: a single-word
   non-exact match (no phrase candidate on its words) that extends a chunk
   opened by an exact match earns nothing (ties with not taking it) when that
   exact match has an exact sibling placed earlier and farther from the
   diagonal (the same hypothesis word at an earlier reference position, or the
   same reference word at an earlier hypothesis position, with a larger
   ``|hs - rs|``). So the word keeps the earlier placement: ``car x of car`` /
   ``of y z of cars`` -> ``of`` 2-0 without ``car`` = ``cars`` (0-2 is farther
   than 2-3), while ``car x of car`` / ``w of y z of cars`` keeps 2-4 with the
   stem 3-5 (2-1 is not farther than 2-4). Fitted on 12 jar runs that move the
   two placements around a fixed hypothesis word (all 12 reproduced) and
   checked on real text (Spanish ``-m 'exact stem'``: 24 -> 21 segment scores
   off; ``exact stem synonym`` 13 -> 12, all modules 222 -> 221; German,
   French, Czech unchanged). A placement of the same hypothesis word one
   reference word before the diagonal is not counted as farther (``x x of
   car`` / ``y of of cars cars`` keeps 2-2 with the stem 3-3; two before, it
   is: ``x x x of car`` / ``w of of of cars cars`` -> 3-1), nor is a
   placement of the same reference word at the hypothesis word just before
   the opener: ``of of car`` / ``w w of cars cars`` keeps 1-2 with the stem
   2-3, and Spanish ``a a listan`` / ``de de a lista lista`` keeps 1-2 with 2-3 (the
   whole rule gave 0-2), while two words before still count (``of y of
   car`` / ``w w of cars cars`` -> 0-2). 18 jar-checked pairs at beam 40
   with the sibling one or two hypothesis words before: all 18 reproduced
   (6 before); the crafted rule 8 and 10 sets: English 60 -> 63 of 68,
   German 20 of 22 unchanged. No bench figure moves: the pattern was shrunk
   from Spanish segment 2535, but it is not what keeps that segment off.
   Where the weak candidates come from one module and none is a phrase, the extension
   loses its credit only while a farther sibling is still free on the path
   (``of x of car`` / ``of of of cars cars`` -> 0-0 2-2 3-3: 2-0 is taken by
   0-0). Jar-checked on 36 placements of ``x.. of car`` / ``w.. of y.. of
   cars cars``: 30 -> 33; Spanish ``exact stem`` 17 -> 16 segment scores off
   (final diff 4.8e-5 -> 6.9e-5), French final diff 7.67e-4 -> 7.80e-4 (one
   220-word segment), other configurations unchanged;
9. *earlier exact siblings*: where several hypothesis words match one
   reference word exactly, taking a later one loses ties (the lowest
   criterion, counted with the detours) to a path on which an earlier one is
   still free. The jar takes the first of such siblings at every beam (``a
   a`` / ``a`` -> 0-0), and it breaks ties while pruning the same way: ``a b
   a`` / ``b a b`` -> 0-1 1-2 (not 1-0 2-1), ``a b b`` / ``a b a b`` -> 0-0
   1-1 2-3. Measured: 4,718 of 4,900 small exact pairs at beam 40 (4,654
   before); segment scores off: English ``exact`` 6 -> 1, ``exact stem`` 5 ->
   1, ``exact stem synonym`` 12 -> 9, all modules 221 -> 216 (every task
   about 5 fewer), German 16 -> 15, Spanish 21 -> 20, French and Czech
   unchanged.
10. *later siblings against weak coverage*: the jar prunes and picks with
   different rankings here (see the residuals on pruning). While pruning, a
   path that took a later exact sibling (rule 9) ranks below every path with
   more weak coverage: the sibling field sits right below the shadowed field,
   above coverage. At the final pick it is the lowest criterion again (rule 9),
   except where the later sibling extends a chunk whose last match is a weak
   one-to-one match that is not its hypothesis word's first placement in its
   module: then it loses to the earlier sibling whatever the coverage.
   Jar-verified: ``, walks ,`` / ``walk walking ,`` -> only ``,`` 0-2 (beams
   2-40; ``walks`` = ``walking`` 1-1 is a later placement), while ``x walks
   ,`` / ``walk walking ,`` keeps 1-1 with ``,`` 2-2 and ``of car of car`` /
   ``cars of`` keeps ``car`` 1-0 with ``of`` 2-1 (a first placement); a
   shrunk WMT21 TED sentence (``denke , es sagt uns , dass es , , unseren`` /
   ``denke , dass es uns sagt , dass es``) reaches the one-chunk-fewer
   alignment from beam 36 in the jar and here (42 before). The pruning part
   applies only where all non-exact candidates come from one module and none
   is a phrase: with synonyms or paraphrases among them it moved crowded ties
   the other way (English all modules 104 -> 105 segment scores off, ``exact
   stem synonym`` 9 -> 8), so there the sibling stayed the lowest
   criterion (until rule 28).
   Measured: segment scores off German 15 -> 10, Spanish 18 -> 17 (final diff
   1.0e-4 -> 4.8e-5), French 12 -> 12 (final diff 7.5e-4 -> 7.7e-4: three
   long segments move, two towards the jar), every other configuration
   unchanged; 2,444 of 2,500 small stem pairs at beam 40 (2,443 before). The
   same sentence with three ``würde`` (``, , würden ,`` / ``, einem würde
   würde , dann würde``) keeps the stem in the jar, which this does not model
   (German segment 928, now off). Re-measured on top of rules 11-27 (rule
   11 still limited), this pruning part alone with all English modules
   swaps segments (713, 977, 1032
   and 1876 fixed; 552, 612, 1511, 1608 and 2609 lost: 50 -> 51 off) while
   it brings every task's final diff within 1e-4 (adq -1.52e-4 -> -9.5e-5,
   li 1.9e-5 -> 4.9e-5), and it gives the jar's threshold on a shrink of
   segment 1300 (``for the use and , as for , and ,`` / ``for to use as as
   , technologies and countries , the``: the far ``the`` = ``the`` 1-10 with
   ``use`` 2-2 from beam 26 in the jar and with it, 50 without); on 1,000
   random 3-9 word windows of WMT22 pairs with a paraphrase candidate it
   changes nothing at beams 1-3 and 40, swaps one at beam 4 and loses one
   at beam 8.
   A fit to the final diffs alone; with rule 11 extended as well it is
   rule 28.
11. *open chunks while pruning*: where rule 10's pruning part applies
   (first found with all non-exact candidates from one module, none a
   phrase; everywhere since rule 28), the jar does not
   charge the chunk a path's last match opened or extended while the walk
   can still extend it: while pruning, a child that takes a match at this
   position ranks one chunk better than its final rank, a child that skips
   it does not (its chunk is closed). The final pick charges every chunk.
   So ``a b`` / ``b a b a`` at beam 2 keeps the one-chunk ``a b`` = ``a b``
   1-2 (the closed chunk ``b`` 1-0 now ranks below the open ``a`` 0-1 and
   is pruned; the jar gives 0-1 1-2 from beam 2, 0-1 1-0 at beam 1), and
   the ambiguous stem of ``cars`` / ``car car`` is kept at beam 1 and
   dropped from beam 2, of ``cars cars`` / ``car`` kept up to beam 2 and
   dropped from 3, as the jar does (a residual before). Jar-checked: all
   2,500 small random ``exact stem`` pairs at beam 1 (1,957 before), at
   beams 2/3/4/6/40 2,416/2,425/2,435/2,430/2,443 (2,244/2,380/2,408/
   2,433/2,443); 4,900 small exact pairs at beams 2/3/4/5/8/40
   4,817/4,731/4,751/4,740/4,713/4,701 (4,788/4,686/4,685/4,741/4,710/
   4,700). Segment scores off: Spanish 16 -> 14 (two shrunk to ``filas
   serie filas son serie dato`` / ``datos serie filas filas las series filas
   son datos``), German 10 -> 8 (``, , einen anderen`` / ``, schenken ,
   hochzeiten , welche , nachdenkt , sind , einem einem anderen`` keeps the
   stem extension 2-12 3-13 with ``,`` 1-2), French 12 -> 11 (final diff
   7.8e-4 -> 5.9e-4), English ``exact stem`` 1 -> 0; no segment moves away
   from the jar. The Spanish final diff rises 6.9e-5 -> 1.3e-4: both fixed
   segments scored below the jar, and what is left is mostly segments where
   the jar's beam loses an alignment with fewer chunks that this search
   keeps (see the residuals). Applied with synonyms and paraphrases too it
   moved English all modules 91 -> 89 segment scores off but the final diff
   -7e-6 -> 2.2e-4, and ``exact stem synonym`` 9 -> 10, so it was not used
   there until rule 28 (with rules 12-27 in place).
12. *weak ties with phrases*, where there are phrase candidates: a
   one-word paraphrase (or stem or synonym) match ties with a phrase of the
   same words plus or minus an exact match (rule 4), and the jar gives the tie
   to the phrase in two cases. (a) The weak match is on the diagonal (``hs ==
   rs``), extends a chunk, and its hypothesis word also starts a phrase
   candidate placed further on in the reference: ``x a t`` / ``x b f t`` with
   ``a`` -> ``b`` and ``a t`` -> ``f t`` keeps ``a t`` = ``f t`` (either
   listing order or direction), while off the diagonal (``y x a t`` / ``x b f
   t``, ``x a t`` / ``z x b f t``) the jar keeps ``a`` = ``b`` with ``t`` =
   ``t``; real text: ``i have to agree .`` / ``i am forced to agree .`` keeps
   ``have to`` = ``forced to`` (WMT22 segment 275). It is rule 6's detour,
   charged where the match extends a chunk (rule 6 charges it where it opens
   one), with no condition on the reference word. (b) The weak match is
   offered at its reference word after another candidate still free on the
   path (rule 3's order: earlier modules, then paraphrases found from the
   reference phrase, then by hypothesis position): ``a b c`` / ``a d`` with
   ``d`` -> ``c``, ``a b`` -> ``a d``, ``b`` -> ``d`` keeps the phrase ``a
   b`` = ``a d`` (``c`` = ``d`` is offered first), while with ``d`` -> ``b``
   listed before ``d`` -> ``c`` (``b`` = ``d`` offered first) the jar keeps
   ``a`` = ``a`` plus ``b`` = ``d``; with ``k`` more weak candidates listed
   before ``d`` -> ``b`` the phrase wins for every ``k`` >= 1 (12 listings);
   ``p w b`` / ``i w e`` with ``w b`` -> ``w e``, ``b`` -> ``e``, ``p`` ->
   ``e`` keeps the phrase, ``w b p`` / ``w e`` (``p`` offered after ``b``)
   the split. Real text: ``soviet era time`` / ``soviet period`` keeps
   ``soviet era`` = ``soviet period`` (``time`` = ``period`` is offered
   first; without ``time`` the jar splits). Such a match loses ties (a field
   below rule 6's detours) unless rule 8 already took its credit away. Only
   with phrase candidates: applied to ``exact stem`` text it moved a segment
   away from the jar. Jar-checked: 24 of 24 placements and listings of (a)
   (18 before), 21 of 28 placements of (b) under four listings (12 before),
   12 of 12 listing orders of (b) (3 before), 21 of 24 placements of ``w b``
   / ``w e`` with a third candidate of ``e`` (18 before); segment scores off,
   English all modules 91 -> 89 (segments 275 and 1646, nothing lost, final
   diff -6.9e-6 -> -1.05e-5), every other configuration, the 4,900 small
   exact pairs, 2,500 small stem pairs and 40,000 crafted paraphrase pairs
   unchanged. (A first version counted only weak candidates of later
   hypothesis words offered before: the same bench figures, 18 of 24 on the
   ``w b`` / ``w e`` placements.) Residuals: ``c a b`` / ``a d`` with ``a b``
   -> ``a d``, ``b`` -> ``d``, ``c`` -> ``d``, ``d`` -> ``c`` keeps the
   phrase in the jar, and so does ``p q w b`` / ``i w e`` (the phrase off the
   diagonal, which rule 5 shadows here), but not ``p q w b`` / ``w e``.
13. *the diagonal shadow lifted by an earlier offer*: rule 5's shadow of a
   single-word weak candidate by a solid paraphrase starting at the same
   place on the diagonal does not hold where, at that reference word, a weak
   candidate of a later hypothesis word is offered before the phrase (an
   earlier module, or the same module earlier in the matcher's order: found
   from the reference phrase). Then the weak match plus the exact match
   after it tie with the phrase, and win on the module fields (more stem
   matches first): ``efforts to x`` / ``effort to`` with ``effort`` -> ``x``
   listed keeps ``efforts`` = ``effort`` (stem) plus ``to`` = ``to``, with
   ``x`` -> ``effort`` (found from the hypothesis word, offered after the
   phrase) the phrase ``efforts to`` = ``effort to``. Real text: ``efforts to
   trying`` / ``effort to`` (the synonym ``trying`` = ``effort`` comes before
   the paraphrases) keeps the stem, ``efforts to`` / ``effort to`` the
   phrase (WMT22 segments 1391 and 2016). Jar-checked: 20 of 20 crafted
   placements and listings (14 before); segment scores off, English all
   modules 89 -> 83 (352, 1184, 1391, 2016, 2210, 2602 fixed, nothing lost;
   final diff -1.05e-5 -> +1.05e-5), every other configuration and the
   small-pair sets unchanged.
14. *ambiguous weak extensions of a detour*: a one-word weak match (stem,
   synonym or paraphrase) whose hypothesis word has another one-word weak
   candidate at a reference word where an exact candidate starts, or that
   another module proposes too (no other one-word weak placement of its
   hypothesis word, no phrase candidate on its words), earns
   nothing (rule 8's no-credit: ties with not taking it) where it extends a
   chunk opened by a diagonal detour (rule 6), so the detour loses the tie to
   its word's other placement. ``the back covered`` / ``the rear is covered
   the`` (``back`` = ``rear`` and ``back`` = ``covered`` synonyms, ``covered``
   = ``covered`` exact) -> ``the`` 0-4 and ``covered`` 2-3 only, while ``the
   back`` / ``the rear covered the`` (no exact ``covered``) and ``the back
   covered`` / ``the rear is covered`` (no other placement of ``the``) keep
   ``the`` 0-0 with ``back`` = ``rear``; with a crafted table (``b`` -> ``r``,
   ``b`` -> ``c``) ``t b c`` / ``t r i c t`` -> ``t`` 0-4, ``c`` 2-3. With one
   weak module and no phrases (rule 8's condition) only while the detour's
   other placement is still free on the path. The jar keeps the weak match
   at beams below 4-8 (the off-diagonal path is pruned), so this is a model
   of the final pick, not of the mechanism. The same pair from two modules:
   ``cars`` = ``car`` (stem and synonym) in ``the cars x`` / ``the car y
   the`` -> ``the`` 0-3 only, while ``the cars`` / ``the car car the`` keeps
   0-0 with the stem (another placement of ``cars``); counting such pairs
   where a phrase candidate covers them too broke WMT22 segment 1652 (``the
   film`` / ``the movie``), and in ``to give x`` / ``to grant y to`` (with
   ``to give`` phrases) the jar drops ``give`` = ``grant`` too, which this
   does not model. Jar-checked (``exact stem synonym``) placements of ``the
   cars covered x`` / ``the car is covered the`` 1,378 -> 1,401 of 1,440,
   ``the cars covered`` / ``the car is covered the`` 347 -> 354 of 360,
   ``the cars x`` / ``the car the y`` 64 -> 68 of 72, ``the cars`` / ``the
   car car the x`` 58 of 60 unchanged; 12,000 random short pairs 11,918 ->
   11,920. Jar-checked for the first kind: crafted placements of ``the back covered x`` / ``the rear is
   covered the`` 1,381 -> 1,404 of 1,440 (``exact synonym`` and ``exact stem
   synonym`` alike), ``the back covered`` / ``the rear covered is the``
   346 -> 353 of 360, ``the cars car`` / ``the car is car the`` (``exact
   stem``) 147 -> 148 of 180, 8 crafted-table pairs 3 -> 8; nothing lost.
   Segment scores off: English all modules 83 -> 82 and ``exact stem
   synonym`` 9 -> 8 (segment 569, ``the back row tunnel is covered with a
   mat`` / ``the rear tunnel is covered by the mat``), every task 1 fewer;
   final diffs all modules +1.05e-5 -> -1.7e-6, ``exact stem synonym``
   2.8e-5 -> 1.6e-5, li 1.73e-4 -> 1.62e-4, tune 1.15e-4 -> 1.06e-4, util
   3.8e-5 -> 3.8e-5, adq -1.17e-4 -> -1.32e-4 and hter -3.0e-5 -> -4.2e-5
   (the fixed segment scored above the jar and offset others); every other
   configuration and the small-pair and crafted paraphrase sets unchanged.
   A table pair listed both ways counts as proposed by another module (as
   in rules 18, 20 and 21): ``x a b`` / ``a a c`` with ``b`` -> ``c`` and
   ``c`` -> ``b`` -> ``a`` 1-0 only (listed once, ``b`` = ``c`` is fixed and
   ``a`` stays at 1-1), ``a b`` / ``a c a`` -> ``a`` 0-2, ``x a b`` / ``y a
   c a`` -> ``a`` 1-3 (jar at beams 40 and 100; at 4 it keeps the pair, as
   above). Jar-checked: 6 of 7 crafted pairs (3 before; ``x y a b`` / ``a a
   c``, off the diagonal, the jar keeps 2-1 with the pair, here 2-0 alone,
   before too); no bench segment moves.
15. *contested phrases*: rule 5's shadow of a phrase by a shorter exact
   sibling off the diagonal drops below coverage (the phrase still loses
   ties of coverage, e.g. to the exact match plus a one-word match of its
   other words) where a reference word of the phrase past the exact match is
   contested: a candidate of a hypothesis word after the phrase, off the
   diagonal, starts there, and that hypothesis word has another placement
   after the phrase that extends a chunk. Then the phrase wins on coverage:
   ``a b n e`` / ``v a e s n e`` with ``a b`` -> ``a e`` keeps ``a b`` =
   ``a e`` (``e`` 3-2 contests ``e``, while ``e`` 3-5 extends ``n`` 2-4),
   as do ``x a b n e`` / ``a e s n e`` and ``a b n e`` / ``v a e s n e a``,
   while ``a b`` / ``v a e s e`` (no chunk to extend), ``a b n e`` / ``n a e
   e s v`` (``e`` 3-3 extends nothing), ``a b n e`` / ``v w a e s n e`` (the
   contester 3-3 is on the diagonal) keep ``a`` = ``a``. Not where another
   hypothesis word has a strong candidate at the phrase's reference word
   (``a b n e y a`` / ``v a e s n e`` keeps ``a`` 0-1; a one-word
   paraphrase there does not count: ``a b n e z`` / ``v a e s n e`` with
   ``z`` -> ``a`` keeps the phrase), nor where the exact match's hypothesis
   word has another exact placement on the diagonal (``a b n e`` / ``a v a
   e s n e`` -> ``a`` 0-2) or before the phrase (``n a b e`` / ``s n a a e
   e v`` -> ``a`` 1-2). Real text: ``may have not be`` / ``vaccine may be
   should not be`` keeps ``may have`` = ``may be`` (WMT22 segment 413;
   ``be`` 3-2 contests it, ``be`` 3-5 extends ``not`` 2-4), and in segments
   1756 and 2060 ``weekend`` = ``week`` contests ``working days`` =
   ``working week``. Jar-checked: crafted
   placements 2,558 -> 2,561 of 2,688 (seven permutation families, nothing
   lost) and, as a held-out check, 2,240 -> 2,248 of 2,400 (four more
   families, nothing lost); segment scores off, English all modules 82 ->
   78 (413, 612, 1756, 2060, nothing lost), every task 4 fewer; final diffs
   all modules -1.7e-6 -> +6.2e-6, adq -1.32e-4 -> -9.8e-5, hter -4.2e-5
   -> -1.3e-5, li 1.62e-4 -> 1.75e-4, tune 1.06e-4 -> 1.16e-4, util 3.8e-5
   -> 5.5e-5 (the fixed segments scored below the jar and offset others
   scored above it); every other configuration, the small-pair and crafted
   paraphrase sets unchanged. The two exclusions were fitted on WMT22 segments
   1110, 2553 and 2760 (the lift alone broke them) and then checked on the
   crafted pairs above; the mechanism is not known. Residual: ``e n x a b``
   / ``v a e s e n`` (the contesting word before the phrase) keeps the
   phrase in the jar, ``e n x a b`` / ``a e s e n`` does not; ``working
   days often`` / ``the working week frequently`` keeps the phrase with
   ``often`` = ``frequently`` (synonym and paraphrase) extending it, and
   ``x will be opened`` / ``will open`` keeps the phrase (``opened`` =
   ``open`` from three modules), both modelled below; with the
   contested word inside the phrase (``x a b d`` / ``a c`` with ``a b d``
   -> ``a c`` and ``d`` -> ``c``) the jar keeps the phrase where ``hs >
   rs``, which this models only for a one-word non-exact candidate inside
   the phrase on both sides (below; any candidate there broke 27 segments).
   A one-word-or-phrase non-exact candidate that starts right after the
   phrase in both sentences (it extends the phrase's chunk, not the exact
   match's) makes the phrase contested too: ``a b cars x`` / ``y a c car
   car`` with ``a b`` -> ``a c`` keeps ``a b`` = ``a c`` and ``cars`` =
   ``car`` 2-3 (the stem has another placement, so it is not fixed), and so
   does ``working days often`` / ``the working week frequently`` (``often``
   = ``frequently`` from synonym and paraphrase). Jar-checked: 960 of 960
   crafted placements under three tables (940 before), the rule's other
   sets unchanged (held-out 2,248 -> 2,251 of 2,400); segment scores off,
   English all modules 78 -> 77 (2439, nothing lost), every task 1 fewer;
   final diffs all modules +6.2e-6 -> +1.7e-5, adq -9.8e-5 -> -7.8e-5,
   hter -1.3e-5 -> +8.4e-6, li 1.75e-4 -> 1.89e-4, tune 1.16e-4 ->
   1.28e-4, util 5.5e-5 -> 5.9e-5 (again the fixed segment scored below
   the jar); the other configurations, small-pair and crafted paraphrase
   sets unchanged. An exact match there does not count (it broke WMT22
   segment 249, ``people who have the`` / ``people with the``). Where the
   phrase starts later in the hypothesis (``hs > rs``), a one-word non-exact
   candidate inside it past the exact match on both sides contests it as
   well: ``x a b d`` / ``a c`` with ``a b d`` -> ``a c`` and ``d`` -> ``c``
   keeps the phrase (``a b d`` / ``x a c`` keeps ``a``), real text ``x will
   be opened`` / ``will open`` (``opened`` = ``open``; WMT22 segment 2406).
   Jar-checked: 684 of 684 crafted placements under three tables (670
   before), the other sets unchanged; segment scores off 77 -> 76 (nothing
   lost), every task 1 fewer; final diffs all modules +1.7e-5 -> +2.6e-5,
   adq -7.8e-5 -> -5.8e-5, hter +8.4e-6 -> +2.9e-5, li 1.89e-4 ->
   1.95e-4, tune 1.28e-4 -> 1.35e-4, util 5.9e-5 -> 7.0e-5; the other
   configurations, small-pair and crafted paraphrase sets unchanged.
16. *a paraphrase proposed twice is one candidate, offered where its first
   copy is*: a pair the table lists both ways (found from the reference
   phrase, then again from the hypothesis phrase) is shadowed (rule 5) only
   if its first copy is, so a shorter sibling offered between the two copies
   does not shadow it. ``p`` / ``x q r s`` with ``p`` -> ``q r``, ``p`` ->
   ``q r s`` and ``q r s`` -> ``p`` keeps ``p`` = ``q r s`` (found first from
   the reference phrase ``q r s``), in either listing order, while without
   ``q r s`` -> ``p`` it keeps ``q r`` (rule 5); real text: ``x besides`` /
   ``in addition to`` keeps ``besides`` = ``in addition to`` over ``besides``
   = ``in addition`` (WMT22 segment 811). Before, a copy shadowed anywhere
   shadowed both. Jar-checked: 6 of 6 crafted placements under two listings
   (2 before), 3 of 3 real-text shrinks (1 before); segment scores off,
   English all modules 76 -> 75 (811, nothing lost), every task 1 fewer;
   final diffs all modules +2.60e-5 -> +2.91e-5, adq -5.81e-5 -> -5.15e-5,
   hter +2.87e-5 -> +3.40e-5, li 1.95e-4 -> 2.02e-4, tune 1.35e-4 ->
   1.40e-4, util 6.99e-5 -> 7.35e-5; the other configurations, the
   small-pair sets (4,900 exact, 2,500 stem, 290 facts), the crafted
   paraphrase pairs and rule 15's crafted placements unchanged.
17. *phrases contested from before*: rule 5's shadow of a phrase by a
   shorter exact sibling off the diagonal does not hold at all (not even
   below coverage, unlike rule 15) where a one-word non-exact candidate of a
   hypothesis word *before* the phrase starts at a reference word of the
   phrase past the exact match, farther from the diagonal than the phrase
   (``|xh - xr| > |hs - rs|``), and that word has no exact candidate before
   the phrase's reference start; as far from it, the shadow drops below
   coverage as in rule 15 (``d a b`` / ``a c`` with ``a b`` -> ``a c``, ``d``
   -> ``c`` keeps the phrase, with ``b`` -> ``c`` too ``a`` = ``a`` plus
   ``b`` = ``c``; the jar facts ``c a b`` / ``a d`` of rule 12 are of this
   kind). Lifted, the phrase also beats the
   exact match plus a one-word match of its other words, which loses the tie
   by rule 12 (b) where the contester is offered before it: ``z a b`` / ``y w
   a e`` with ``a b`` -> ``a e``, ``z`` -> ``e`` and ``b`` -> ``e`` keeps
   ``a b`` = ``a e``, ``q a b`` / ``y w a e`` keeps ``a`` = ``a`` plus ``b``
   = ``e``; with a stem ``cars`` = ``car`` (offered before the contester
   ``z`` = ``car``) ``z a cars`` / ``y w a car`` keeps the split. Not where
   the contester is nearer the diagonal: ``d x a b`` / ``a c`` (``a b`` ->
   ``a c``, ``d`` -> ``c``; phrase 2-0, contester 0-1) keeps ``a`` = ``a``,
   ``d x y z a b`` / ``y y a c`` (4-2, 0-3) the phrase; nor where the
   contester's word is placed exactly before (``z a b`` / ``z y w a e``).
   Real text: ``its the will become`` / ``gazeta that it will be`` keeps
   ``will become`` = ``will be`` (``its`` = ``be`` contests ``be``; WMT22
   segment 1568), ``make will happen work`` / ``the work will be`` keeps
   ``will happen`` = ``will be``. Jar-checked: 64 of 64 crafted pairs under
   six tables and 3 real-text shrinks (30 before), rule 15's crafted placements 2,561 -> 2,565 of
   2,688 (nothing lost); segment scores off, English all modules 75 -> 71
   (1025, 1568, 1873, 2151, 2911 fixed; 1401 lost: its ``told the`` /
   ``informed the`` tie, off here before too when shrunk, now decided inside
   the beam), every task 4 fewer; final diffs all modules +2.91e-5 ->
   +1.85e-5, adq -5.15e-5 -> -6.26e-5, hter +3.40e-5 -> +1.68e-5, li
   2.02e-4 -> 1.58e-4, tune 1.40e-4 -> 9.66e-5, util 7.35e-5 -> 6.62e-5;
   the other configurations, the small-pair sets and the crafted paraphrase
   pairs unchanged. A contester *after* the phrase counts the same way
   (farther: no shadow, as far: below coverage) where rule 15's two
   exclusions do not hold: ``a b q z`` / ``y a e`` (``z`` 3-2, phrase 0-1)
   and ``a b q w z`` / ``y a e`` keep ``a b`` = ``a e``, ``a b z`` / ``y a
   e`` (``z`` on the diagonal) keeps ``a``; with ``b`` -> ``e`` (offered
   before ``z`` -> ``e``) ``a`` = ``a`` plus ``b`` = ``e``. Real text:
   ``soviet era the " time`` / ``the soviet period`` keeps ``soviet era`` =
   ``soviet period`` (``time`` = ``period`` 4-2), while ``soviet era the
   time`` / ``the soviet period`` (3-2, as far as the phrase) splits (WMT22
   segment 412). Jar-checked: 12 of 12 crafted pairs under two tables (8
   before), 4 of 4 real-text variants (3 before), rule 15's crafted
   placements 2,565 -> 2,567, crafted paraphrase pairs 13,077 -> 13,078 of
   ``gen_t2`` (``x a c d e`` / ``a b y``, nothing lost); segment scores off
   English all modules 71 -> 70 (412, nothing lost), every task 1 fewer;
   final diffs all modules +1.85e-5 -> +1.14e-5, adq -6.26e-5 -> -6.87e-5,
   hter +1.68e-5 -> +1.04e-5, li 1.58e-4 -> 1.43e-4, tune 9.66e-5 ->
   8.23e-5, util 6.62e-5 -> 6.28e-5; the other configurations unchanged.
   (Without the exclusions it broke the segments they were fitted on,
   1110, 2553 and 2760.)
18. *longer phrases absorbing doubly proposed weak words*: off the
   diagonal, of two paraphrase candidates starting at the same place with
   the same reference words, the shorter loses the tie (the lowest rank
   field) where each hypothesis word only the longer covers has, as its
   only candidates, one one-to-one non-exact pair proposed two or more times
   (two modules, or a table pair listed both ways) at a reference word after
   the phrase. ``q a b troops`` / ``x v troop`` with ``a b`` -> ``x`` and
   ``a b troops`` -> ``x`` keeps ``a b troops`` = ``x`` where ``troops`` =
   ``troop`` is a stem and a paraphrase match (or a pair listed both ways),
   and ``a b`` = ``x`` where it is proposed once, on the diagonal (``a b
   troops`` / ``x v troop``), or where ``troop`` comes before the phrase
   (``q a b troops`` / ``troop v x``) or inside its reference span; real
   text ``the of russian troops`` / ``russia 's troop`` keeps ``of russian
   troops`` = ``russia`` (WMT22 segments 1150 and 2667). A model of the
   final pick, not of the mechanism: the jar keeps the pair at beams 1-2 and
   the longer phrase from beam 3, which open chunks left uncharged while
   pruning (rule 11) and survivors taken in the heap's poll order would
   explain, but both applied everywhere moved English all modules 75 -> 118
   segment scores off; and the jar gives ``a b`` = ``x`` again with two
   reference words between the phrase and ``troop`` (``x v w troop``),
   which this does not model. Jar-checked: 40 of 41 crafted pairs under six
   tables (32 before); segment scores off, English all modules 70 -> 68
   (1150, 2667, nothing lost), every task 2 fewer; final diffs all modules
   +1.14e-5 -> +1.53e-5, adq -6.87e-5 -> -5.81e-5, hter +1.04e-5 ->
   +2.87e-5, li 1.43e-4 -> 1.50e-4, tune 8.23e-5 -> 9.19e-5, util 6.28e-5
   -> 6.98e-5; the other configurations, the small-pair sets, the crafted
   paraphrase pairs and rules 15 and 17's crafted sets unchanged.
19. *a diagonal start given up for another copy*: a one-word exact match on
   the diagonal (``hs == rs``) whose hypothesis word also matches exactly at
   another reference word (later or earlier), where a phrase candidate
   starts at the same place and no candidate of a hypothesis word outside
   that phrase covers the phrase's reference words: every candidate starting
   there is shadowed (rule 5's field, above coverage). So the jar takes the
   other copy alone rather than the diagonal word plus a weak match after
   it, or the phrase, though both cover more: ``a b`` / ``a c x a`` with
   ``a b`` -> ``a c`` (with or without ``b`` -> ``c``) -> ``a`` 0-3, ``a b``
   / ``a c b a`` -> ``a`` 0-3 with ``b`` 1-2, ``z w a b`` / ``a q a c`` ->
   ``a`` 2-0; kept where there is no other copy (``a b`` / ``a c``), off
   the diagonal (``a b`` / ``y a c x a``), and where another hypothesis word
   matches a reference word of the phrase (``a b b`` / ``a c x a`` with
   ``b`` -> ``c``); ``a b a`` / ``a c x a`` (``a`` 2-0 covers the diagonal's
   reference word) the jar keeps ``a`` 0-0 with 2-3, which this does not
   model (the phrase, as before). With one-word weak candidates only (``-m
   "exact synonym"``) the jar keeps the diagonal: it is the phrase that
   gives it up. Real text: ``to give`` / ``to grant x to`` -> ``to`` 0-3
   (WMT22 segment 430, jar the same at beams 10-100). Jar-checked: 67 of 68
   crafted pairs under four tables (33 before); segment scores off, English
   all modules 68 -> 67 (430, nothing lost), every task 1 fewer; final
   diffs all modules +1.53e-5 -> +3.2e-6, adq -5.81e-5 -> -7.31e-5, hter
   +2.87e-5 -> +1.67e-5, li 1.50e-4 -> 1.39e-4, tune 9.19e-5 -> 8.23e-5, util
   6.98e-5 -> 6.90e-5; the other configurations, the small-pair sets and
   rules 15, 17 and 18's crafted sets unchanged, crafted paraphrase pairs
   (gen_t2) 13,078 -> 13,080.
20. *doubly proposed pairs opening a chunk while pruning* (now part of
   rule 11, which applies with every module set since rule 28; kept for
   its evidence): where rule 11 did not apply (several weak modules, or
   phrases), a child that opens a
   chunk with a one-to-one non-exact pair proposed two or more times (two
   modules, or a table pair listed both ways) gets rule 11's credit while
   pruning (one chunk better than its final rank), where the pair's copies
   are its hypothesis word's only candidates and a candidate starts right
   after it in both sentences (it can extend the chunk). The final pick
   charges the chunk as before. So the jar keeps such pairs that open a
   chunk of their own in long, crowded segments, where this search pruned
   the path that takes them: real text ``it would seem that almost all girls
   dream of princesses in`` / ``it would seem that almost every little girl
   dreams of a princess in`` keeps ``princesses`` = ``princess`` 9-11 (a
   stem and a synonym match; jar at beams 1-200, here from beam 2; WMT22
   segment 2517 shrunk), ``india has already in called for the`` / ``the
   indian had back in calls for in`` keeps ``called`` = ``calls`` 4-5 (jar at
   beams 1-200, here at 4-20 and 40-200; WMT22 2563 shrunk). The jar's
   choice in the unshrunk ``india`` pair (WMT22 44 shrunk to ``india has
   already in called`` / ``indian had back in with calls in``) changes with
   the beam (kept at 1-10 and 30-40, dropped at 15-25 and from 45): a
   pruning effect, hence a pruning rule. Every take of such a pair, or one
   that also extends a chunk, moved more segments away than it fixed
   (English all modules 68 -> 71 and 68 -> 69); requiring the extension
   candidate, 68 -> 65 with four lost (689, 1756, 2760, 2863); requiring the
   hypothesis word to have no other candidate, nothing lost. Segment scores
   off (with rule 21 in place), English all modules 66 -> 61 (28, 44, 552,
   2517, 2563 fixed, nothing lost), every task 5 fewer; final diffs all
   modules -8.9e-6 -> +2.20e-5, adq -8.80e-5 -> -6.5e-6, hter +4.8e-6 ->
   +3.61e-5, li 1.29e-4 -> 1.62e-4, tune 7.27e-5 -> 1.07e-4, util 6.82e-5
   -> 7.85e-5: four of the five fixed segments scored below the jar, so
   the corpus scores move up, and tune's crosses the 1e-4 target (the segments still
   off are net above the jar: 1300, 2223, 1182, 236, 244, 478, 2003 are the
   largest). The other configurations unchanged.
21. *a doubly proposed pair given up for a free farther placement*: a
   one-to-one non-exact pair proposed two or more times (two modules, or a
   table pair listed both ways) whose copies are its hypothesis word's only
   candidates, on or below the diagonal (``hs >= rs``), extended by a
   one-word exact match at (``hs + 1``, ``rs + 1``) whose hypothesis word
   has no other exact placement as near the diagonal or nearer, but has a
   farther one at a reference word no candidate of another hypothesis word
   covers (off the diagonal, only such a placement before the pair counts):
   the pair earns nothing (no covered word, no module count, like rule 8's
   extensions) and loses ties (a field with rule 6's detours). So the jar
   moves the exact word to its free farther placement and drops the pair,
   though the pair and its extension cover more: ``x b a`` / ``a c a`` with
   ``b`` -> ``c`` and ``c`` -> ``b`` -> ``a`` 2-0 only, ``b a`` / ``c a a``
   -> ``a`` 1-2, ``y x b a`` / ``a c a`` -> ``a`` 3-0; kept where the pair is
   listed once (``b`` = ``c`` is then fixed, rule 2), above the diagonal
   (``b a`` / ``a c a``, ``x b a`` / ``a y c a``), where the other placement
   is not farther (``x b a`` / ``c a a``: 2-2 is nearer than 2-1; ``x b a``
   / ``c a y a``: 2-3 as far), off the diagonal where it comes after (``y
   x b a`` / ``q c a x x x a``), and where the chunk goes on (``x b a w`` /
   ``a c a w``: without the pair ``a`` 2-0 would split it). Real text:
   ``suppress sliding and`` / ``and slipping and`` (``sliding`` =
   ``slipping`` a synonym and paraphrase match) -> ``and`` 2-0 only (WMT22
   segment 136 shrunk; with one module, ``-m "exact synonym"``, the jar
   keeps the synonym). The jar gives the same at beams 4, 40 and 100: a
   model of its final pick. Residual: ``x b a a`` / ``a c a`` (``a`` 3-0
   covers the farther placement's reference word) -> jar ``a`` 2-0 and 3-2,
   which this does not model. Jar-checked: 29 of 30 crafted pairs (20
   before), 8 of 8 placements of the real-text shrink (4 before); segment
   scores off, English all modules 67 -> 66 (136, nothing lost), every task
   1 fewer; final diffs all modules +3.2e-6 -> -8.9e-6, adq -7.31e-5 ->
   -8.80e-5, hter +1.67e-5 -> +4.8e-6, li 1.39e-4 -> 1.29e-4, tune 8.23e-5
   -> 7.27e-5, util 6.90e-5 -> 6.82e-5; the other configurations unchanged
   (``exact stem synonym`` lost 671 and 2964, ``noted`` = ``notes`` 5-3 with
   ``that`` placed farther after it, before the placement had to come
   before the pair off the diagonal).
22. *shorter paraphrases shadow across hypothesis words*: rule 5's shadow
   holds between paraphrases that start at the same reference word from
   different hypothesis words too: a paraphrase off the diagonal offered
   before another one there (rule 3's order), with fewer words and fewer
   reference words, shadows it, so the longer one loses the coverage tie.
   ``p w n`` / ``h b o`` with ``w`` -> ``h b`` and ``n`` -> ``h b o`` keeps
   ``w`` = ``h b`` (1-0), though ``n`` = ``h b o`` (2-0) covers one more
   reference word and has the same strength; so do ``p q w n``, ``p w q n``,
   ``w p q n`` / ``x y z h b o`` (however far the shorter one is from the
   diagonal) and ``p w n`` / ``x y h b o`` (the longer one on the
   diagonal). Not where the shorter one is on the diagonal (``w n`` / ``h b
   o``, ``p w n`` / ``x h b o`` keep ``n``) or offered after the longer one:
   with the table listed from the hypothesis side ``p n w`` / ``h b o``
   keeps ``n`` = ``h b o`` (``n`` comes first), listed from the reference
   side (``h b`` -> ``w``, ``h b o`` -> ``n``: offered in the table's
   order) it keeps ``w`` = ``h b``. Real text: ``progress was not`` / ``has
   been no`` keeps ``was`` = ``has been`` over ``not`` = ``has been no``
   (WMT22 segment 1333). Jar-checked: 48 of 48 crafted pairs under three
   tables at beams 4, 10, 40 and 100 (10 before), the real-text shrink at
   the same beams. Two exclusions were fitted on WMT22 segments (the rule
   without them fixed 1333, 1485 and 2311 but broke 561, 1287, 1654, 2597
   and 2885): no shadow where a hypothesis word of the shorter paraphrase
   has an exact candidate anywhere (``are`` = ``is made up`` 3-14 against
   ``consists of`` = ``is made up of`` 14-14, ``are`` = ``are`` being 3-3;
   ``more than`` = ``over`` against ``in 10`` = ``over 10``) or where its
   hypothesis words lie inside the other's (``the conclusion`` =
   ``concluded`` inside ``have come to the conclusion that`` = ``concluded
   that``). Segment scores off, English all modules 67 -> 65 (1333, 2311,
   nothing lost), every task 2 fewer; final diffs all modules +3.2e-6 ->
   +1.4e-6, adq -7.31e-5 -> -7.68e-5, hter +1.67e-5 -> +1.90e-5, li
   1.39e-4 -> 1.36e-4, tune 8.23e-5 -> 8.23e-5, util 6.90e-5 -> 6.76e-5;
   the other configurations and rules 17 and 18's crafted sets unchanged.
   (2311, ``a few hundred`` / ``several hundred``, is a crowded beam: its
   shrink keeps ``a few hundred`` = ``several hundred`` in the jar at beams
   10-40 and splits at 100.)
23. *a later sibling beside a split phrase*: a later exact sibling (rule 9)
   does not lose ties to a path on which the earlier one is free where that
   earlier one's hypothesis word starts a paraphrase whose other words are
   another paraphrase with the same reference words, the later sibling
   extends a chunk, and it is no nearer the diagonal than the earlier one.
   With ``e m`` -> ``a m`` listed before ``e m`` -> ``o a m`` (``a m``
   offered first), ``p o a m d o`` / ``e m d o`` keeps ``a m`` = ``e m``
   with ``d`` and the later ``o`` 5-3, though ``o a m`` = ``e m`` would use
   the earlier ``o`` (rule 9 kept ``o a m``); so do ``p q o a m d o`` and
   ``p o a m o`` / ``e m o``. Where the later ``o`` is nearer the diagonal
   (``o a m d o`` / ``e m d o``, ``p o a m d o`` / ``x y e m d o``, ``p o
   a m o`` / ``x e m o``) it loses the tie and ``o a m`` wins, and where it
   extends no chunk (``p o a m d x o`` / ``e m d y o``) the earlier ``o``
   takes the reference word. Real text: ``purchase of a million doses of``
   / ``one million doses of`` keeps ``a million`` = ``one million`` (WMT22
   segment 4), ``of a million doses of`` / ``one million doses of`` keeps
   ``of a million``. Jar-checked: 42 of 42 crafted pairs under three
   listings at beams 4, 10, 40 and 100 (38 before), the real-text pairs at
   the same beams. Rejected wider conditions: every later sibling no nearer
   the diagonal than a free earlier one (en all modules 65 -> 69: 4, 489,
   1032, 1401, 1802 fixed, 9 broken), the earlier one inside any phrase (65
   -> 67), no chunk condition (65 -> 63 but 1572 broken). Segment scores
   off, English all modules 65 -> 63 (4, 489, nothing lost; 489 is
   beam-dependent in the jar), every task 2 fewer; final diffs all modules
   +1.4e-6 -> +2.0e-6, adq -7.68e-5 -> -7.78e-5, hter +1.90e-5 -> +1.43e-5,
   li 1.36e-4 -> 1.40e-4, tune 8.23e-5 -> 8.47e-5, util 6.76e-5 ->
   6.67e-5; the other configurations unchanged.

24. *a later sibling beside a phrase split the other way*: where a
   later exact sibling (rule 9) extends a chunk and an earlier exact sibling
   of it, at least two words farther from the diagonal, starts a paraphrase
   whose other words form another paraphrase with *other* reference words,
   taking the later sibling while that earlier word is free loses above
   coverage (rule 10's sibling field), not only as the lowest criterion. So
   with ``o t a`` -> ``n a`` and ``t a`` -> ``b n a``, ``o t a o`` / ``b n a
   o`` keeps ``o t a`` = ``n a`` 0-1 with ``o`` 3-3, though ``t a`` = ``b n
   a`` 1-0 with the same ``o`` covers one more reference word; so do ``x o t
   a o`` / ``y b n a o``, ``o t a q o`` / ``b n a q o`` and ``x o t a i o`` /
   ``b n a i o`` (the earlier ``o`` 3 from the diagonal, the later 1). Where
   the earlier sibling is only one word farther or less (``x o t a o`` /
   ``b n a o``: 2 and 1; ``x x o t a i j o`` / ``b n a i j o``: 3 and 2) or
   the later one extends no chunk (``o t a q o`` / ``b n a o``: ``o`` 0-3
   with ``t a``) coverage decides as before. Only the sibling that starts
   the phrase counts: another free earlier copy charges both paths alike.
   Real text: ``of the average inhabitant of`` / ``left by an average
   inhabitant of`` keeps ``of the average`` = ``an average`` (WMT22 segments
   1452, 2257, 2620; ``the average`` = ``by an average`` before). Jar-checked:
   30 of 30 crafted pairs at beams 4, 10, 40 and 100 (9 before), two
   real-text shrinks at the same beams. Residual: ``x of the average
   inhabitant of`` / ``by an average inhabitant of`` (the earlier ``of`` 3
   from the diagonal, the later 1, with ``the average`` = ``an average`` a
   candidate too) keeps ``the average`` = ``by an average`` in the jar, which
   this does not model; crafted, it needs ``t a`` = ``n a`` proposed twice
   (listed both ways): then ``x o t a i o`` / ``b n a i o`` keeps ``t a`` =
   ``b n a`` (listed once, ``o t a`` = ``n a``), while ``x o t a i j o`` /
   ``b n a i j o`` (4 and 1 from the diagonal) keeps ``o t a`` either way. Segment scores off, English all modules 57 -> 54
   (1452, 2257, 2620, nothing lost; three alignments move without a score
   change: 49, 702, 1302), every task 3 fewer; final diffs all modules
   +2.1e-5 -> +1.5e-5, adq -1.1e-5 -> -2.2e-5, hter +3.4e-5 -> +4.1e-5, li
   1.62e-4 -> 1.51e-4, tune 1.10e-4 -> 1.10e-4, util 7.6e-5 -> 7.2e-5; the
   other configurations unchanged.
25. *a later sibling at a phrase's place, nearer the diagonal*: a
   candidate starting where a paraphrase of more words starts (the
   paraphrase itself, or a one-word exact match L there) with an earlier
   exact sibling strictly farther from the diagonal (a one-word exact match
   of an earlier hypothesis word at its reference word, or of its
   hypothesis word at an earlier reference word) loses above coverage
   (rule 10's sibling field, while pruning and at the final pick) where it
   opens a chunk while that sibling is free on the path. So the jar keeps
   the earlier word alone rather than the later one plus a weak match after
   it, or the phrase, though both cover more: with ``a b`` -> ``a c`` and
   ``b`` -> ``c``, ``a a b`` / ``x a c`` keeps ``a`` 0-1 (not ``a b`` =
   ``a c`` 1-1 on the diagonal), ``a a b`` / ``x y a c`` keeps ``a`` 0-2
   (not ``a`` 1-2 with ``b`` = ``c``), ``a a a b`` / ``a x w a c`` keeps
   ``a`` 0-0 and ``a`` 1-3 (any farther sibling left free counts), and
   mirrored ``x y a c`` / ``a a b`` (``a c`` -> ``a b``) keeps ``a`` 2-0;
   with ``b c`` -> ``a c`` (the phrase of another word), ``a b c d`` / ``y
   a c d z a`` keeps ``a`` 0-1 with ``c`` and ``d`` rather than ``b c`` =
   ``a c`` 1-1 with ``a`` 0-5. Where the later one is not nearer (``a a b``
   / ``a c``, ``a q a b`` / ``x a c``, ``x a b c d`` / ``y a c d z a``) or
   extends a chunk (``a q a b`` / ``y x q a c``) coverage decides as
   before, and with no phrase there (only ``b`` -> ``c``) the jar keeps the
   later sibling with ``b`` = ``c`` in every placement. A paraphrase at a
   later sibling's reference word also loses ties as a later exact sibling
   does (rule 9): ``a q a b`` / ``x q a c`` keeps ``a`` = ``a`` with ``b``
   = ``c`` 3-3, as ``y q a b`` / ``x q a c`` does, rather than the phrase.
   Not where a one-to-one weak pair proposed two or more times (two modules,
   or a table pair listed both ways) starts right after the candidate in
   both sentences and it is off the diagonal: ``a a b`` / ``x y a c`` with
   ``c`` -> ``b`` listed too keeps ``a`` 1-2 with ``b`` = ``c``. Real text:
   ``the the other`` / ``in the second`` keeps ``the`` 0-1 alone (WMT22
   segment 1625, ``the other`` = ``the second`` 22-22 before), ``to the
   full air`` / ``due to full air and to`` keeps ``to`` 0-1 with ``full``
   and ``air`` (WMT22 segment 2657, ``the full`` = ``to full`` before),
   while ``the y the film`` / ``x y in the cinema`` (``film`` = ``cinema``
   a synonym and a table pair listed both ways) keeps the later ``the``
   with ``film`` = ``cinema`` (WMT22 segment 83, which the rule broke
   without that exclusion). Jar-checked at beam 40 (beam 4 gives the same
   but for two placements with three ``a``, ``a a a b`` / ``a x y w a c``,
   where it keeps the later one): 46 of 46 placements with ``a b`` -> ``a
   c`` and ``b`` -> ``c`` (20 before), 46 of 46 with ``a b`` -> ``a c``
   alone (36), 46 of 46 mirrored (33), 42 of 42 with a stem ``cars`` =
   ``car`` after ``a`` (19), 7 of 7 of the rule-9 part (3), 139 of 150
   random placements with ``b c`` -> ``a c`` (133) and 106 of 120 held-out
   ones (91); crafted paraphrase
   pairs ``gen_t1`` 13,243 -> 13,245 and ``gen_t2`` 13,080 -> 13,082, the
   small-pair sets unchanged. Segment scores off, English all modules 54
   -> 52 (1625, 2657, nothing lost; no other alignment moves), every task 2
   fewer; final diffs all modules +1.51e-5 -> +9.4e-6, adq -2.23e-5 ->
   -4.23e-5, hter +4.05e-5 -> +2.00e-5, li 1.51e-4 -> 1.45e-4, tune
   1.10e-4 -> 1.05e-4, util 7.19e-5 -> 6.14e-5; the other configurations
   unchanged (the rule needs a paraphrase). Residuals: with the weak pair
   after L proposed twice or more, the jar's choice depends on how much
   nearer L is: listed both ways, ``a y a b`` / ``x y w a c`` (3 and 1
   from the diagonal) keeps the earlier ``a`` alone; with a stem and both
   listings (three copies) it keeps the later ``a`` with the pair there,
   and the earlier one again at ``a y q a cars`` / ``x y w z a car`` (4 and
   1); here the later one wins in all of these. With the phrase of another
   word the jar keeps the earlier sibling also where both are as far from
   the diagonal (``a x b c d`` / ``y a c z a``), and where the sibling's
   word comes after the phrase (``b c a`` / ``y a c z a`` keeps ``c`` 1-2
   and ``a`` 2-1, ``b c x a`` / ``a c z a`` keeps ``a`` 3-0 though it is
   farther: the residual of segments 1300 and 2223 below). Charging the
   phrase for such a later word's free exact match at its first reference
   word too fits the crafted placements (held-out 106 -> 115 of 120 where
   that word has no other exact placement extending a chunk) but not the
   real text: English all modules 52 -> 54 with that exclusion (137 fixed;
   1994, 2563, 2876 lost), 52 -> 57 without it (137, 1300, 2223 fixed, 8
   lost).
26. *a weak extension of a phrase moved nearer the diagonal*: rule 8 for
   phrases. A paraphrase of more than one word (on either side) with a
   sibling paraphrase of the same hypothesis words at an earlier reference
   word, strictly farther from the diagonal, opens a chunk whose one-to-one
   weak extension (the match right after it in both sentences, whatever
   other candidates overlap that one) earns nothing, so the jar keeps the
   earlier, farther phrase alone though the nearer one plus the weak match
   cover more. Unlike rule 8 a sibling one reference word before the
   diagonal counts. Real text (WMT22 segment 236 shrunk, all English
   modules, jar-checked at beams 4 and 40): ``x have taken`` / ``they had
   their fill`` keeps ``have`` = ``they had`` 1-0 alone, not ``have`` =
   ``had their`` 1-1 with ``taken`` = ``fill``; so do ``x y have taken`` /
   ``w they had their fill`` (2-1 against 2-2) and ``jellyfish have
   taken`` / ``they had their fill``, while ``have taken`` / ``they had
   their fill`` (0-0 is not farther than 0-1) and ``x have taken`` / ``y
   they had their fill`` (1-1 against 1-2) keep the nearer phrase with the
   synonym. Segment scores off, English all modules 52 -> 51 (236, nothing
   lost), every task one fewer; final diffs all modules +9.4e-6 ->
   -2.8e-6, adq -4.23e-5 -> -5.72e-5, hter +2.00e-5 -> +8.0e-6, li 1.45e-4
   -> 1.35e-4, tune 1.05e-4 -> 9.5e-5, util 6.14e-5 -> 6.06e-5; the other
   configurations unchanged (the rule needs a paraphrase). Not checked on
   crafted tables.
27. *paraphrase counts unseen while pruning*: rule 4's module criterion
   (more paraphrase matches rank better where everything above it ties)
   decides the final pick, but the jar's pruning does not compare it: there
   children tied above it are kept in rule 7's heap order, which polls an
   exact match offered first (rule 3) before a tied phrase. So ``the use of
   x to`` / ``to use`` (real English table: ``the use`` -> ``to use``) keeps
   ``to`` = ``to`` 4-0 at beam 1 over the phrase ``the use`` = ``to use`` 0-0
   (both of strength 1, one chunk, one reference word covered when taken)
   and ends with ``use`` 1-1 and ``to`` 4-0 (strength 2), which this search
   reached only from beam 2 before. Only the modules that propose phrases
   (the paraphrase module) are left out of the pruning; leaving out every
   module's count loses seven English segments (552, 1184, 1511, 2563, 2609,
   2876, 2973). Jar-checked: 14 crafted real-table pairs around ``the use
   of`` / ``to use`` at beams 1, 2, 3, 4, 10 and 40, 69 -> 80 of 84
   alignments; 600 random 3-9 word windows of WMT22 pairs that have a
   paraphrase candidate, beam 1 483 -> 501 (18 fixed, none lost), beams
   2/3/4/8/40 490/535/568/589/592 -> 490/534/568/590/592. Segment scores
   off, English all modules 51 -> 50 (990, 1300 and 2223 fixed; 2876 and
   2973 lost: crowded ties of exact placements, and a four-chunk path the
   jar's beam loses while this one now keeps it), every task one fewer;
   final diffs all modules -3.0e-6 -> -5.5e-5, adq -5.7e-5 -> -1.52e-4,
   hter +8.0e-6 -> -9.8e-5, li 1.35e-4 -> 1.9e-5, tune 9.5e-5 -> -5.0e-6,
   util 6.1e-5 -> 1.6e-5 (1300 and 2223, one sentence from two systems,
   scored far above the jar: they carried most of li's difference); the
   other configurations unchanged (no phrases). Not modelled: ``for the
   use of to`` / ``to use`` at beam 2, where the jar keeps ``to`` 4-0 over
   the tied ``the use of`` = ``to use`` 1-0, which the heap polls first.
   Reversing the criterion while pruning (fewer paraphrase matches better)
   gets that one too and agrees as often on the random windows, but on the
   bench fixes 1032, 1300 and 2223 and loses 33, 94, 2876 and 2973.
   Counting a phrase's first reference word as covered only when the
   search passes its last (also right on the crafted pairs) loses ``,
   will invest in the creation of their`` / ``, will invest in its own``
   at beam 1 (the jar keeps ``their`` = ``its own`` over ``of their`` =
   ``its``) and, on the bench, 33, 612, 2563, 2876, 2911 and 2973 for
   1032, 1300 and 2223.
28. *rules 10 and 11 with every module set*: their pruning parts (a later
   exact sibling ranks below more weak coverage; the chunk a child's match
   opens or extends is not charged while the walk can still extend it)
   were limited to candidates from one weak module without phrases, because
   with more modules they moved English segments the wrong way when most
   later rules did not exist. With rule 27 in place they hold everywhere,
   and the pruning key they make is the jar's far more often where beams
   are small: at beam 1 the jar keeps one-word weak matches that open a
   chunk of their own (``for clothes .`` / ``features of garment`` keeps
   ``clothes`` = ``garment``, a synonym; ``, he began to cough`` /
   ``coughing endlessly ,`` keeps the stem ``cough`` = ``coughing``), which
   the chunk charge made this search drop. Jar-checked on 600 random 3-9
   word windows of WMT22 pairs that have a paraphrase candidate (all
   English modules, the jar's ``Matcher`` at each beam): beams 1/2/3/4/8/40
   501/490/534/568/590/592 -> 600/589/582/584/592/592 (rule 27 before: at
   beam 1 483 -> 501; rule 11 alone without rule 27 gives 580 at beam 1).
   Rule 20's credit for doubly proposed pairs is rule 11's, so it is now
   rule 11 (its five segments stay fixed). Segment scores off, English all
   modules 50 -> 48 (418, 713, 977, 1032, 1399, 1422, 1626, 1876, 2580,
   2858, 2973 and 2984 fixed; 472, 810, 1142, 1276, 1511, 1608, 1622, 2601,
   2609 and 2863 lost), every task two fewer (util one); ``exact stem
   synonym`` 8 -> 7 (83 and 418 fixed, 2609 lost); final diffs all modules
   -5.5e-5 -> +6.5e-5, adq -1.52e-4 -> +1.34e-4, hter -9.8e-5 -> +5.2e-5,
   li 1.9e-5 -> 1.18e-4, tune -5.0e-6 -> 8.6e-5, util 1.6e-5 -> 6.1e-5,
   ``exact stem synonym`` 1.6e-5 -> 3.0e-5; the other configurations
   unchanged (one weak module already). The segments lost are crowded
   beam-40 cases where the rules fitted since rule 11 (12-26) assumed the
   old pruning key; they are the place to look next. Counting a phrase's
   uncovered rest as an open chunk too (a path inside its phrase) lost one
   more (2984); giving the credit only where some candidate starts right
   after the match in both sentences (as rule 20 had it) fixes 8 of the
   segments off (810, 1142, 1276, 1622, 2601 among them) but loses 19, and
   the jar keeps ``clothes`` = ``garment`` above at beam 1 although nothing
   can extend it.

Rules 20-21 and 22-23 were found in parallel on the same base (67 English
segment scores off); together, English all modules 67 -> 57 off (every
other task 70 -> 60), and with rule 24 54 (57): final diffs all modules
+1.5e-5, adq -2.2e-5, hter +4.1e-5, li 1.51e-4, tune 1.10e-4, util
7.2e-5; the other configurations unchanged. Rule 25 then 52 (55): final
diffs all modules +9.4e-6, adq -4.2e-5, hter +2.0e-5, li 1.45e-4, tune
1.05e-4, util 6.1e-5.

Implementation: what rules 2-10 decide per candidate (its rank terms and
flags) is computed here, as plain loops over the candidates compiled with
numba (``_table`` and the functions it calls); the walk over the reference,
the beam and rule 7's heap run compiled in :mod:`tmtprime.meteor.beam`, with
ranks as packed int64 words, word sets as 64-bit masks and trails as parent
pointers. On 1,800 WMT22 segments with all English modules the search went
from 749 to 162 microseconds a segment when it was compiled (the whole
alignment 870 -> 251), and the whole alignment from about 175 to 82 (2,000
segments, both measured in one run) when the per-candidate rules and the
table followed, with identical alignments.

Rules 4-5 for paraphrases were fitted on ~40,000 crafted pairs with crafted
paraphrase tables (``-a``) and checked on WMT22 sentences; they are a model of
what the jar does, not of how. Known residual differences (measured in
``bench/meteor_parity.py``):

* ties the jar breaks differently when several words compete for the same
  places (``a b`` / ``a b a a b`` -> 0-0 1-1 although ``a b`` / ``a b x a b``
  -> 0-3 1-4; ``a a f`` / ``a x a y a f`` -> 0-2 1-4 although ``a a`` / ``a x
  a y a`` -> 0-0 1-2), and ties changed by a weak candidate of the same word
  in between (``a`` / ``a b a`` with ``a`` -> ``b`` keeps 0-0, the diagonal);
* rule 8 is a model, not the mechanism: with the exact sibling at the same
  reference word and the weak match ambiguous on the hypothesis side, ``of x
  y of car car`` / ``w w of cars`` the jar keeps 3-2 with the stem 4-3
  (rule 8 gives 0-2), and in ``x x of car`` / ``of y y of cars cars`` it
  keeps 2-3 with the stem 3-4 although 2-0 is farther and free;
* long segments where the pruning still differs (French gettext text: most
  remaining score differences are segments of 100-500 words, and they carry
  the French final-score difference). There the jar ends with *more* stem
  matches and more chunks than this aligner (a 390-word segment: jar 206
  exact + 9 stem matches in 173 chunks, here 209 + 3 in 158): it keeps
  ambiguous stem matches that open a chunk of their own (``le`` = ``les``
  far off the diagonal), which rule 4 drops; no beam size here reproduces it.
  The stems themselves are not the cause: every stem pair the matcher
  proposes on the French, German and Spanish bench text (2,396 distinct
  pairs) is one the jar's ``Matcher -m stem`` aligns too, and every jar
  alignment is made of candidates found here;
* the jar prunes with a ranking that differs from its final choice (rule
  11 models the part about open chunks). What is still missed (Spanish
  ``-m 'exact stem'``): the jar leaves out an ambiguous weak match that
  would cost no chunk where the same weak word has an earlier placement
  (``serie x serie de`` / ``y lista series de de`` -> only ``de`` 3-4,
  while ``x la serie de`` / ``la lista series de de`` keeps ``serie`` =
  ``series`` 2-2 with ``de`` 3-3), and ``la seleccionada`` / ``seleccionar
  de la la la seleccionado`` -> only ``la`` 0-2 at beams 2-40 (here 0-3
  at beam 3, 0-4 with the stem 1-5 at beam 40);
* crowded beams where the jar loses an alignment with fewer chunks that
  this search keeps: Spanish ``del callout de del punto de de la`` / ``la
  la del de de de la`` (``-m 'exact stem'``) reaches ``la`` 7-6 (one chunk
  fewer than 7-0) from beam 43 in the jar, 29 here (every beam 1-60
  measured); French ``de données ont été avec maxalign % le avec maxalign
  %`` / ``le de de été initialisé avec un maxalign à % le été`` 49 in the
  jar, 22 here (both measured at every beam 1-60). Most remaining Spanish and French score differences are of
  this kind, and they are biased up (this aligner scores higher), which
  carries the final diffs: on the bench segments this search at beam 8-36
  gives the jar's beam-40 score (Spanish 1167 and 1656 up to beam 36, 721
  up to 32; 1330, 689, 1334, 319 and 343 only up to 8-12). Crafted (exact only), with ``k``
  doubled words before a bait (``a b a b y x`` / ``x a u b w y x``: the
  ``x`` at 0 must be given up for the chunk ``y x``): the jar needs beams 7,
  16 and 34 for ``k`` = 2, 3, 4 (5, 9 and 18 here), 13 with tripled words
  (10), 12 with two baits (``x x a u b w y x``, 10); ``a y x`` / ``x a a w y
  x`` 2 in the jar, 4 here, and ``a b a b y x`` / ``x a u a b w y x`` 6 in
  the jar, 7 here. Where only ties decide (``a a a b`` / ``b b a b``: 9 in
  the jar, 8 here; ``a a a a b`` / ``b b a b`` 12 and 10; ``a a a b`` / ``b
  b b a b`` 12 and 11) the jar's threshold is the number of better children
  plus all those tied with the target: it keeps equal ranks in offer order
  there, not in rule 7's heap order. Measured and ruled out as the
  mechanism (each alone, on the crafted thresholds above, the 4,900 small
  exact pairs, 3,000 random 5-11 word exact pairs at 15 beams and the
  bench): equal ranks kept in offer order (stable) instead of the heap
  brings the thresholds nearer (6, 10, 19) and the small exact pairs at beams 2-8 up
  (4,654/4,598/4,629/4,641/4,655 -> 4,660/4,648/4,650/4,654/4,677 of the
  4,711 this search gets right at beam 40), but trades a Spanish segment
  for another (final diff 1.30e-4 -> 1.51e-4) and costs one each in German,
  Czech and English ``-m exact`` and ``exact stem``; with
  rule 10's pruning charge of later siblings dropped as well it gets 7, 17
  and 41 (small pairs 4,660/4,656/4,665/4,663/4,682, random pairs 43,777
  of 45,000 against 43,666) and the French final diff 5.9e-4 -> 1.5e-4,
  but 20 German segment scores off (8) and 5 English ``-m exact`` (1): a
  run of commas (``of of , , the , , the 9 , 2021 business ,`` / ``, , ,
  2021 , 9 , of the``) needs that charge here to keep the earliest
  siblings, as the jar does. Walking the survivors best first, pruning after each
  candidate rather than each reference word (thresholds near 2), keeping the
  first ``beam`` entries of the heap's array instead of its polls, offering
  children candidate by candidate across paths, and a distance ``|hs - rs|``
  tie-break below chunks (beam-1 agreement 4,711 -> 3,392) are further off.
  Not charging, while pruning, a later exact sibling whose free earlier
  siblings have no other placement (rule 10's charge kept otherwise) fixes
  Spanish segment 2751 (14 -> 13 off, final diff 1.30e-4 -> 1.40e-4) and
  moves the French final diff 5.9e-4 -> 4.8e-4 with every other
  configuration unchanged, but loses small exact pairs at beams 3-5 (4,598
  -> 4,565 at beam 3), so it is a fit to the bench, not the mechanism.
  The jar's beam is not weaker everywhere: ``the oscar the the the
  nomination " " " "`` / ``the " the " the oscar the`` (shrunk from WMT22
  segment 2609) reaches ``the`` 0-4 2-6 3-0 4-2 (one chunk fewer) from beam
  17 in the jar, 27 here (not at 48 and 57; 48 with stable ties, not
  within 60 with stable ties and no sibling charge), so a mechanism has
  to make the jar weaker among a bait's equal-rank detours and stronger
  among permutations of one repeated word. Spanish 1167 (two chunks)
  shrinks to ``la la de qué la del nivel de corrección de error`` / ``del
  de de la del de de errores``: the jar reaches 5 chunks from beam 26 and 4
  from 62, this search from 19 and 36 (33 alone too); exact letters (``a a b a c b b e`` /
  ``c b b a c b b e``) keep it: 3 chunks from 27 in the jar, 19 here, and
  the one-chunk diagonal from 61 in both. The bias is systematic on crowded
  strings only: on 600 random exact pairs of 14-24 words (five frequent
  words and fillers; jar at beams 5, 10, 20, 40) this search agrees on
  1,911 of 2,400 alignments and, where it differs with as many matches, has
  fewer chunks than the jar 198 times and more 56 times, while on the 3,000
  random 5-11 word pairs it is balanced (119 and 129). Further variants
  measured and ruled out: the skip child offered before a path's options
  (small exact pairs at beam 2 4,654 -> 4,004; in the heap only, 4,364); a
  heap comparator that never returns 0 (ties as worse: beam 2 4,396; as
  better: 4,560); the later-sibling charge while pruning counted only at
  the step that takes the sibling, not carried along the path (crafted
  thresholds 5, 14, 33 for ``k`` = 2, 3, 4, near the jar's 7, 16, 34, but
  small pairs at beams 2-8 4,637/4,570/4,600/4,638/4,647 and the long pairs
  1,911 -> 1,750 with the bias reversed, 101 and 254); the charge kept only
  while the earlier sibling is still free on the path (a state rather than
  a history): small pairs up at every beam (4,658/4,599/4,631/4,645/
  4,659), random pairs 43,666 -> 43,688, crafted thresholds unchanged, long
  pairs 1,911 -> 1,906; where rule 10's pruning part applies it brings the
  Spanish final diff to 9.8e-5 (1334 fixed; 1044 lost: the jar's alignment
  here at beams 17-80 but 19, with it at none of 1-80), German 8 -> 6 segments off, the
  French final diff 5.9e-4 -> 2.9e-4, but Czech 1 -> 2, English ``-m
  exact`` 1 -> 2 (435: here at beams 2-80, with it from 71) and ``exact
  stem`` 0 -> 2; with all modules too it swaps 6 English segments for 6
  others (adq final diff -5.7e-5 -> -1.7e-4), and applied at the final
  pick as well it loses about 1,800 of the 45,000 random-pair alignments
  (small pairs at beam 2 4,483). The strongest lead: while pruning, a
  later exact sibling charged once per earlier sibling still free at its
  reference word (two free earlier copies: two sibling units) instead of
  once, the final pick unchanged: 2,000 random exact pairs of 5-9
  words over ``a a a b b c`` and fillers (jar at beams 2, 3, 4, 6, 10)
  9,235 -> 9,421 of 10,000 alignments, the long crowded pairs 1,911 ->
  2,051 (fewer chunks than the jar 198 -> 122 times, more 56 -> 57),
  random pairs 43,666 -> 43,747, small pairs at beams 2/3/4/5/8/40
  4,656/4,664/4,662/4,653/4,677/4,708, and ``c c w1 d w4 c c d`` / ``d c
  d`` (the one ``c`` must go to the fourth, next to the last ``d``) needs
  beam 6 (jar 7, 3 before); counting every earlier copy, free or not, is about as good
  (9,438; 2,023), the free copies only where the word does not recur later
  in the reference, or as a state, or not carried along the path, or the
  sum of hypothesis positions, worse (9,256 to 9,420; 1,935 to 1,992).
  (Stable ties alone give 9,400 and 1,928, with this count 9,430 and 2,038.)
  But on the bench it only trades segments: Spanish 319 and 1334 fixed,
  690 and 2190 lost (final diff 1.30e-4 unchanged), German 1832 for 1289,
  French 1886 for 1007 (final diff 5.9e-4 -> 4.6e-4), English all modules
  1191 and 2076 for 1709 and 2609, and 2609 lost with ``-m exact``,
  ``exact stem`` and ``exact stem synonym``: its shrink ``the oscar the the
  the nomination " " " "`` / ``the " the " the oscar the`` then follows
  the jar's 6-chunk alignments (beams 7-13, as the jar) but reaches 5
  chunks only from 59 (jar 17), and ``a a b a w4`` / ``a w8 c a a`` at
  beam 4 the jar keeps ``a`` 3-0 (the third copy, the first two placed
  later at 3-4) as a single charge would. So the jar charges skipped
  copies, but not simply per copy, and the mechanism is still unknown;
* the pruning at the smallest beams, exact matches only, where every
  partial alignment can be enumerated (4,711 small exact pairs this search
  gets right at beam 40; the jar's own output at each beam). Here beam 1
  agrees on all of them, so the rank of one path's children is right: the
  differences are in how children of *different* parents are ranked and
  tied. Where the jar's path leaves this search's beam first, at beam 2
  (57 pairs) / beam 3 (113): tied with the child kept here, 28 / 50;
  strictly below it by this rank, 13 / 24; kept to the end but not chosen
  by the final rank, 11 / 30; a final tie, 5 / 9. The smallest shapes:
  (a) ``a a b a`` / ``b b a a`` at beam 2 (jar 0-2 1-3 2-0, here 2-1): at
  reference word 2 the jar keeps ``[2-0 0-2]`` beside the best ``[2-1
  3-2]`` where rule 7's heap keeps the tied ``[2-1 0-2]`` (offer order
  would keep the jar's; 4 of the 28 beam-2 ties); (b) 22 of the 28 are
  another shape, ``a b b a c a`` / ``a a b b`` at reference
  word 1 with parents ``[0-0]`` and ``[3-0]``: the jar keeps ``[3-0 0-1]``
  (the second parent taking the earlier sibling it had passed over) rather
  than ``[0-0 5-1]`` (a later sibling while ``3`` is free); rule 9 charges
  both one later sibling, so the jar's charge is not the path's history;
  (c) at reference word 0 at beam 3 (29 of the 50 ties:
  ``a a a a b b a`` / ``a a b``, children ``0-0`` best, then ``1-0``,
  ``2-0``, ``3-0``, ``6-0`` tied) the jar keeps ``2-0`` (its result 2-0 3-1
  4-2), i.e. the first three offered, while the heap keeps ``1-0`` and
  ``6-0``; (d) against both, ``a a b x`` / ``x x a b a x`` at beam 2 keeps
  both children of ``[3-0]`` (``0-2`` and the later sibling ``1-2``) over
  ``[3-1 0-2]``, which this rank puts above them (``x`` taken at reference
  word 1 after passing its placement at 0 costs in the jar as a later
  sibling does), while ``a c b c a b`` / ``b b b c a c`` (parents
  ``[2-0 5-1]``, ``[5-0 2-1]``, right here) keeps the first parent's
  later sibling ``3-3`` over the second parent's ``1-3``, which the
  state-based count of (b) would rank above it: no one of offer-order
  ties, candidate-major offering or a state-based sibling count explains
  (a) to (d) together; (e) ``a c a x c`` / ``c b a x b x`` at beam 2
  ends in the jar with 0-2 1-0 3-3 (three chunks) though ``[1-0 2-2
  3-3]`` (two) is reachable: the jar dropped ``[1-0 2-2]`` at reference word 2 for the
  tied ``[4-0 0-2]``. Measured agreement at beams 2/3/4/5/8 (beam 1 and
  40 unchanged unless said; this search 4,654/4,598/4,629/4,641/4,655):
  equal ranks kept in offer order 4,660/4,648/4,650/4,654/4,677; later
  siblings counted on the path's final state (charged while an earlier
  sibling is still free, refunded when it is taken) while pruning
  4,658/4,599/4,631/4,645/4,659, with the mirrored count (a hypothesis
  word taken at a later reference word while an earlier one it matches
  stays free) 4,662/4,606/4,630/4,646/4,661 (3,000 random 5-11 word
  exact pairs at 15 beams: 43,724 of 45,000, this search 43,666), and
  both with offer-order ties 4,670/4,666/4,654/4,662/4,679 (random pairs
  43,776; the crafted thresholds 6, 10, 19: the jar's 7, 16, 34 not
  reached); the same count at the final pick too loses 45 at beam 40.
  On the bench (where rule 10's pruning part applies; final pick and
  heap unchanged) the state-based count moves the French final diff
  5.9e-4 -> 2.9e-4 and German 8 -> 6 segment scores off (473, 2494),
  Spanish 14 -> 13 (1334 and 2751 fixed, 1044 lost; final diff 1.30e-4
  -> 1.08e-4), but loses one segment each in English ``-m exact`` and
  ``exact stem`` (435: ``, , of and of the netflix " in squid " series
  ...``, a crowded run of ``,``/``of``/``the``/``"``) and Czech (2100), so
  it is not used (hypothesis side alone: the same gains but Spanish 14,
  and English ``exact stem`` also loses 2827). With offer-order ties
  added (the best variant on the small pairs) the bench is worse: English
  ``-m exact`` 4 off, ``exact stem`` 3, Czech 2, German 8, Spanish 15,
  French final diff 3.2e-4. A bounded queue that evicts its worst entry is no
  better: replacing only a strictly worse entry, survivors in offer order,
  gives 4,654/4,649/4,642/4,642/4,674 (close to offer-order ties; the
  best of 36 survivor orders and final picks tried), adding and then
  evicting 4,308/4,177 at beams 2/3. Ruled out (each far below this
  search): children offered candidate by candidate across parents
  (4,254/3,803 at beams 2/3 with the heap), a copy of the path for each
  candidate it cannot take (equal partials in several slots: 4,641/4,503/
  4,580/4,507/4,525, beam 40 4,554), no open-chunk credit (rule 11:
  4,626/4,550/4,565/4,629/4,644), pruning on strength and chunks alone
  (4,604/4,497/4,558/4,572/4,625) or strength alone (beam 1 4,317), the
  final pick by the last pruning key (beam 40 3,481), a comparator that
  never answers "equal" (+1: 4,396 at beam 2; -1: 4,560), survivors in
  poll order, and walking the hypothesis instead of the reference (beam 1
  4,125 of 4,900 with the plain rank, against 4,900). A plain model
  (more matches, fewer chunks with rule 11's credit, rule 7's heap, no
  rules 6 and 9) agrees at beam 1 on all 4,900 small pairs and at beam 40
  on 4,488 (this search 4,711): rules 6 and 9 are final-pick facts any
  mechanism must reproduce. On the crafted thresholds (``k`` = 2, 3, 4:
  jar 7, 16, 34) the plain model gives 6, 22, 36 with the heap, 7, 17, 41
  with offer-order ties and 9, 21, 49 without the open-chunk credit, and
  rule 9's sibling charge with offer-order ties 6, 10, 19 (7, 12, 21
  without the credit): the jar charges some later siblings while pruning,
  fewer than rule 9 does;
* ties decided inside a crowded beam: in the TED sentence of rule 10
  without the stem candidate, the jar finds the alignment with one chunk
  fewer from beam 25, this search from beam 28 (exact matches only, so the
  heap order of rule 7 is still not the jar's in every crowded tie);
* paraphrase choices that turn on the diagonal in ways rules 5-6 do not
  capture: ``be able replace`` / ``can only be replaced`` keeps ``be`` = ``be``
  over two diagonal one-to-phrase paraphrases, ``the support of`` / ``supported
  by`` keeps ``support of`` = ``supported by`` over the diagonal ``the support
  of``, ``a d`` / ``c d q e e`` (``a`` -> ``c d``, ``d`` -> ``e e``) keeps ``d``
  = ``d`` over the two paraphrases in two chunks;
* among tied paraphrases of one phrase the jar takes the one its table lists
  first (``a b c`` / ``d e`` with ``d e`` -> ``b c`` listed before ``d e`` ->
  ``a b c`` keeps ``b c``, listed after it keeps ``a b c``; ``p`` / ``x q r
  s`` with ``p`` -> ``q r s`` listed before ``p`` -> ``q r`` keeps ``q r s``),
  an order the candidates do not carry (Meteor's English table lists them
  alphabetically, which rule 5's "fewer words first" follows for phrases
  with the same start).
* a phrase whose first reference word an exact match of a later hypothesis
  word could take: with ``a b`` -> ``c b`` the jar keeps ``b`` = ``b`` and
  ``c`` 3-0 in ``a b s c`` / ``c b c`` (also ``c b x c``, ``c b c c``, ``x
  c b c``, ``a b s s c``, ``x a b s c``; the same at beam 10,000, so it is
  its final pick), though the phrase with ``c`` 3-2 ties on strength and
  chunks and covers more; it keeps the phrase where ``c``'s other placement
  saves a chunk (``a b c`` / ``c b c``, ``a b s c q`` / ``c b c q``) or lies
  before the phrase (``a b s c`` / ``c c b c``). Shrunk from WMT22 segments
  1300 and 2223 (``for use services to`` / ``to use to`` -> ``use`` 1-1,
  ``to`` 3-0), the two segments scoring most above the jar. Neither a
  shadow of the phrase (English all modules 137, 1300, 2223 fixed, 8 lost)
  nor a credit for the exact match at the phrase's start (2 fixed, 5 lost
  with the phrase's first words unequal) separates the real segments yet;
* ``i don 't believe there`` / ``i do not think there`` (WMT22 2003): the
  jar keeps ``believe`` = ``do not think`` 3-1 over ``don`` = ``do not`` plus
  ``believe`` = ``think`` (same strength and chunks, more coverage here);
  crafted (``i d q b t`` / ``i x y c t``), the jar does so only where ``x y
  c`` -> ``b`` is listed (found from the reference phrase, offered first)
  and ``x y`` -> ``d`` is not, with ``b`` -> ``c`` listed once or both ways:
  an offer-order tie this ranking breaks on coverage. Leaving paraphrase
  matches out of the module fields does not fix it (it fixes 1300 and 2223
  at beam 40 by pruning, loses 2876 and 2973, and moves the adq corpus
  diff to -1.04e-4).
* one-word weak pairs that open a chunk of their own, kept by the jar up to
  a beam that depends on how crowded the beam is (English all modules, 10
  segments): ``basis is reinforced of minerals`` / ``based is strengthened
  mineral`` (WMT22 2580 shrunk; ``minerals`` = ``mineral`` a stem, synonym
  and paraphrase match, no candidate after it) keeps the pair at beams 1-40
  and drops it from 60 in the jar, as the unshrunk segment does. Rule 20's
  credit without its "a candidate starts right after it" condition
  reproduces this shrink at every beam 4-200, but with the same words the
  jar's threshold moves with the placement (``... x mineral`` kept at 4 only,
  ``... x y mineral`` at 4-40, ``based strengthened mineral`` never) and
  on the bench it fixes 418 and 2580 and loses 1114, 1276 and 2911 (jar
  keeps ``sleep`` = ``sleeping`` at 1-4, ``wash`` = ``washing`` at 1-20;
  with the credit this search keeps them to 60 and past 200): its beam is
  more crowded at such a pair than the jar's there, and less crowded in
  1399 (``irritate`` = ``annoy``: jar 1-100, with the credit here 1-10)
  and 1422 (jar 1-40, here 1-20).
  Limiting the credit to pairs below the diagonal (``hs > rs``) gives 51
  off (2580 fixed, nothing lost, every task one fewer; final diffs all
  modules +9.4e-6 -> +2.6e-5, tune 1.05e-4 -> 1.10e-4) but contradicts the crafted placements
  above, so it is not used. The jar also keeps such pairs where the
  hypothesis word has other candidates (1352 ``wrote`` = ``written`` at
  1-40, 2091 ``been`` = ``was`` at 20-100, 583 one synonym), which no rule
  here credits.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Collection, Sequence
from functools import cache
from pathlib import Path

import numpy as np

from tmtprime.meteor import beam as _beam
from tmtprime.meteor.matchers import Match
from tmtprime.meteor.search import walk
from tmtprime.paths import cache_dir

DEFAULT_BEAM = 40


def _chunks(matches: Sequence[Match]) -> int:
    count = 0
    prev_h = prev_r = -1
    for hs, hl, rs, rl, _stage in sorted(matches):
        if hs != prev_h or rs != prev_r:
            count += 1
        prev_h, prev_r = hs + hl, rs + rl
    return count


def count_chunks(matches: Sequence[Match]) -> int:
    """Runs of matches contiguous and identically ordered in both sentences."""
    return _chunks(matches)


def align(
    hyp: Sequence[str],
    ref: Sequence[str],
    candidates: Sequence[Match] | np.ndarray,
    exact_stages: Collection[int],
    beam_size: int = DEFAULT_BEAM,
    phrase_stages: Collection[int] | None = None,
) -> list[Match]:
    """The jar's alignment of ``hyp`` and ``ref`` from ``candidates`` (tuples or rows of an array), sorted by
    hypothesis position.

    A pair with no candidate from ``phrase_stages`` (the paraphrase module's) is aligned by the mechanism
    search of :mod:`tmtprime.meteor.search`, which matches the jar more often on text neither was fitted
    on; the rules below are kept for pairs with paraphrase candidates, where they still do better. Without
    ``phrase_stages`` every pair goes through the rules."""
    if exact_stages and hyp and len(hyp) == len(ref) and list(hyp) == list(ref):
        stage = min(exact_stages)
        return [(i, 1, i, 1, stage) for i in range(len(hyp))]
    if len(candidates) == 0:
        return []
    hyp_len, ref_len = len(hyp), len(ref)
    spans = np.array(candidates, dtype=np.int64)
    if phrase_stages is not None and not np.isin(spans[:, 4], list(phrase_stages)).any():
        exact = np.isin(spans[:, 4], list(exact_stages))
        chosen = walk(spans, exact, hyp_len, ref_len, max(beam_size, 1))
        return sorted(map(tuple, spans[chosen].tolist()))
    fixed = _beam.unambiguous(spans, hyp_len, ref_len)
    if fixed.all():
        return sorted(map(tuple, spans.tolist()))
    stages = int(spans[:, 4].max()) + 1
    exact_stage = np.zeros(stages, np.bool_)
    exact_stage[[s for s in exact_stages if s < stages]] = True
    exact = exact_stage[spans[:, 4]]
    # rule 8 looks at the path only where the weak candidates come from one module, none a phrase
    weak_stages = spans[~exact, 4]
    one_weak_module = bool((weak_stages == weak_stages[:1]).all() and (spans[:, 1:4:2] == 1).all())
    best = _search(hyp_len, ref_len, spans, exact, stages, fixed, max(beam_size, 1), one_weak_module)
    return sorted(map(tuple, spans[best].tolist()))


def compile_now(notify: Callable[[str], None] | None = None, warm_up: Callable[[], object] | None = None) -> None:
    """Compile before the first segment, telling ``notify`` when this is the one-off compile.

    The first run after an install or an upgrade compiles the search, the
    rules, the matchers and the statistics (about 30 s), during which a
    progress bar would stand still; numba caches the result for later runs. A
    marker per installed version of this package's modules, in TMTprime's
    cache directory, says whether that has happened (stamped over all of them,
    not only those imported so far, so that it does not depend on which
    modules a run happens to load). ``warm_up``
    (the CLI scores one small pair with its configured scorer) compiles what a
    run uses; by default only the aligner is compiled.
    """
    marker = _compiled_marker()
    if notify is not None and (marker is None or not marker.exists()):
        notify("compiling the Meteor scorer once for this installation (about 30 s; later runs reuse it)")
    if warm_up is not None:
        warm_up()
    else:
        # ``a b a`` / ``a a b``, exact only: ambiguous, so the rules and the search run (one compiled variant serves all)
        align(("a", "b", "a"), ("a", "a", "b"), [(0, 1, 0, 1, 0), (0, 1, 1, 1, 0), (1, 1, 2, 1, 0), (2, 1, 0, 1, 0),
                                                 (2, 1, 1, 1, 0)], {0}, 2)  # fmt: skip
    if marker is not None:
        marker.touch()


def _compiled_marker() -> Path | None:
    """Where to note that this installation's compiled code is cached; None without a writable cache."""
    import numba

    sources = sorted(Path(__file__).parent.glob("*.py"))
    stamp = "|".join([numba.__version__, sys.version, *(f"{p}:{p.stat().st_mtime_ns}" for p in sources)])
    try:
        return cache_dir() / f"aligner-compiled-{hashlib.sha1(stamp.encode()).hexdigest()[:16]}"
    except OSError:
        return None


# The rules' per-candidate decisions below are compiled (numba): each takes the candidates as rows of ``spans``
# (hs, hl, rs, rl, stage) and ``exact`` (per candidate, whether its module is exact) and answers per candidate.
# Written as plain loops over the candidates (a segment has tens to hundreds), they ran in Python at about
# 180 microseconds a segment, more than the search itself.


@_beam.compiled
def _diagonal_detours(spans: np.ndarray, exact: np.ndarray, hyp_len: int, ref_len: int) -> np.ndarray:
    """Candidates the jar gives up on a tie: on the diagonal, for a hypothesis word with other placements.

    A match starting at the same index in both sentences (``hs == rs``) whose
    first reference word no other candidate covers, while its first hypothesis
    word is covered by other candidates too, loses every tie against those other
    placements (module docstring, rule 6) -- unless it opens a diagonal run of
    two or more exact matches whose next exact copy further on in the
    reference comes after another placement of one of the run's words
    (``a b`` / ``a b b a b`` keeps 0-0 1-1).
    """
    hyp_cover, ref_cover = _beam.coverage(spans, hyp_len, ref_len)
    out = np.zeros(spans.shape[0], np.bool_)
    some = False
    for c in range(spans.shape[0]):
        out[c] = spans[c, 0] == spans[c, 2] and ref_cover[spans[c, 2]] == 1 and hyp_cover[spans[c, 0]] > 1
        some |= out[c]
    if not some:
        return out
    one_word_exact = np.zeros((hyp_len + 1, ref_len + 1), np.bool_)  # (hs, rs) of one-word exact matches
    for c in range(spans.shape[0]):
        if exact[c] and spans[c, 1] == 1 and spans[c, 3] == 1:
            one_word_exact[spans[c, 0], spans[c, 2]] = True
    for c in range(spans.shape[0]):
        if out[c] and _copy_after_other_placements(spans[c, 0], one_word_exact, spans):
            out[c] = False
    return out


@_beam.compiled
def _copy_after_other_placements(start: int, one_word_exact: np.ndarray, spans: np.ndarray) -> bool:
    """Whether the diagonal exact run from ``start`` (two words or more) is copied further on in the reference
    only after another placement of one of its words (rule 6's exception: the jar then keeps the diagonal)."""
    run, diagonal = 0, min(one_word_exact.shape[0], one_word_exact.shape[1])
    while start + run < diagonal and one_word_exact[start + run, start + run]:
        run += 1
    if run < 2:
        return False
    ref_end = 0
    for c in range(spans.shape[0]):
        ref_end = max(ref_end, spans[c, 2] + spans[c, 3])
    for copy in range(start + run, ref_end - run + 1):
        copied = True
        for k in range(run):
            copied &= one_word_exact[start + k, copy + k]
        if copied:
            for c in range(spans.shape[0]):
                if start <= spans[c, 0] < start + run and start + run <= spans[c, 2] < copy:
                    return True
            return False
    return False


@_beam.compiled
def _shadowed(spans: np.ndarray, exact: np.ndarray, hyp_len: int) -> np.ndarray:
    """Candidates that lose to a sibling starting at the same place in both sentences (rule 5).

    Off the diagonal (``hs != rs``) a strong candidate with fewer words, fewer
    of them in the reference, shadows the longer strong ones of its module or
    a later one starting where it starts and offered after it: an exact match
    shadows every phrase there (``covered with`` / ``is
    covered by`` keeps ``covered`` = ``covered``), a shorter phrase a longer
    one (``price`` / ``rewrite the prices of`` keeps ``price`` = ``the
    prices``). An exact match off the diagonal also shadows a phrase starting
    at its reference word whose hypothesis span holds its hypothesis word
    further in (``x y`` / ``y z`` with ``x y`` -> ``y z`` keeps ``y`` =
    ``y``), unless the phrase's first hypothesis word has a single-word
    non-exact candidate. On the diagonal a solid paraphrase shadows the single-word
    non-exact candidates starting where it starts (``luck in`` / ``success in``
    keeps the phrase, not ``luck`` = ``success`` plus ``in`` = ``in``), unless a
    weak candidate of a later hypothesis word is offered before it there (rule 13).

    Returns the shadowed candidates and, apart, the phrases whose shadow by an
    exact sibling rule 15 moves below coverage (a rank field of their own).
    """
    n = spans.shape[0]
    strong = np.empty(n, np.bool_)
    for c in range(n):
        strong[c] = exact[c] or spans[c, 1] > 1 or spans[c, 3] > 1
    out = np.zeros(n, np.bool_)
    contested = np.zeros(n, np.bool_)
    for c in range(n):
        hs, hl, rs, rl, stage = spans[c, 0], spans[c, 1], spans[c, 2], spans[c, 3], spans[c, 4]
        for o in range(n):  # its siblings
            if o == c or spans[o, 0] != hs or spans[o, 2] != rs:
                continue
            if hs != rs:  # a strong sibling offered earlier (module, then the matcher's order), with fewer words
                # and fewer reference words, shadows
                if (
                    strong[c] and strong[o] and (spans[o, 4] < stage or (spans[o, 4] == stage and o < c))
                    and spans[o, 1] + spans[o, 3] < hl + rl and spans[o, 3] < rl
                ):  # fmt: skip
                    contest = _rest_contested(spans, exact, c, o) if exact[o] else 0
                    if contest == 1:
                        contested[c] = True
                    elif contest == 0:
                        out[c] = True
            elif not strong[c] and spans[o, 1] > 1 and spans[o, 3] > 1 and not exact[o]:
                out[c] = not _weak_offered_before(spans, exact, o)
    # an exact match off the diagonal shadows the phrases that start at its reference word and hold its
    # hypothesis word further in, unless their first hypothesis word has a weak candidate of its own
    weak_at = np.zeros(hyp_len, np.bool_)
    for c in range(n):
        weak_at[spans[c, 0]] |= not strong[c]  # one word to one word, not exact
    for c in range(n):
        if not strong[c] or exact[c] or weak_at[spans[c, 0]]:
            continue
        for e in range(n):
            if (
                exact[e] and spans[e, 0] != spans[e, 2] and spans[e, 2] == spans[c, 2]
                and spans[c, 0] < spans[e, 0] < spans[c, 0] + spans[c, 1]
            ):  # fmt: skip
                out[c] = True
    _shadow_across_hypothesis_words(spans, exact, strong, out)  # rule 22
    # a candidate the matchers propose twice (a paraphrase listed under both phrases) is one candidate, offered
    # where its first copy is: shadowed if that copy is (rule 16; a later copy is shadowed wherever its first
    # copy is, so only shadowed ones need a look)
    for c in range(n):
        if not (out[c] or contested[c]):
            continue
        for o in range(c):
            if (
                spans[o, 0] == spans[c, 0] and spans[o, 1] == spans[c, 1] and spans[o, 2] == spans[c, 2]
                and spans[o, 3] == spans[c, 3] and spans[o, 4] == spans[c, 4]
            ):  # fmt: skip
                out[c] = out[o]
                contested[c] = contested[o]
                break
    return out, contested & ~out


@_beam.compiled
def _shadow_across_hypothesis_words(spans: np.ndarray, exact: np.ndarray, strong: np.ndarray, out: np.ndarray) -> None:
    """Rule 22: rule 5's shadow between paraphrases that start at the same reference word from different
    hypothesis words; marks the shadowed ones in ``out``.

    The shadower is a paraphrase off the diagonal offered before the other
    (rule 3's order) with fewer words and fewer reference words, whose
    hypothesis words have no exact candidate anywhere (an exact placement
    would take them elsewhere) and do not lie inside the other's hypothesis
    span.
    """
    n = spans.shape[0]
    for c in range(n):
        if not strong[c] or exact[c]:
            continue
        hs, hl, rs, rl, stage = spans[c, 0], spans[c, 1], spans[c, 2], spans[c, 3], spans[c, 4]
        for o in range(n):
            oh, ol = spans[o, 0], spans[o, 1]
            if (
                o == c or exact[o] or not strong[o] or spans[o, 2] != rs or oh == hs or oh == rs
                or not (spans[o, 4] < stage or (spans[o, 4] == stage and o < c))
                or ol + spans[o, 3] >= hl + rl or spans[o, 3] >= rl
                or (hs <= oh and oh + ol <= hs + hl)
            ):  # fmt: skip
                continue
            placed = False
            for x in range(n):
                placed |= exact[x] and oh <= spans[x, 0] < oh + ol
            if not placed:
                out[c] = True
                break


@_beam.compiled
def _split_phrase_siblings(spans: np.ndarray, exact: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per candidate, for rules 23 and 24 (one pass over the earlier exact siblings of each):

    * rule 23 (bool): later exact siblings that do not lose ties to an earlier one left free by a split
      phrase. The candidate is a one-word exact match that extends a chunk (a candidate ends right before
      it in both sentences), and an earlier exact sibling at its reference word, no farther from the
      diagonal than it, has as hypothesis word the first word of a paraphrase whose other words form
      another paraphrase with the same reference words (``o a m`` and ``a m`` for ``e m``): a path that
      takes the shorter one leaves that sibling free without having passed it over;
    * rule 24 (int): the hypothesis word of an earlier exact sibling whose being free makes taking the
      candidate lose even against coverage, or -1. The sibling is at least two words farther from the
      diagonal and starts a paraphrase whose other words form another paraphrase with *other* reference
      words (``o t a`` = ``n a`` and ``t a`` = ``b n a``): a path that took the shorter phrase left that
      word free.
    """
    n = spans.shape[0]
    ties = np.zeros(n, np.bool_)
    split = np.full(n, -1, np.int64)
    for c in range(n):
        if not _extending_exact_word(spans, exact, c):
            continue
        hs, rs = spans[c, 0], spans[c, 2]
        for o in range(n):
            h = spans[o, 0]
            if not exact[o] or spans[o, 2] != rs or h >= hs:
                continue
            if abs(h - rs) <= abs(hs - rs):
                ties[c] |= _starts_split_phrase(spans, exact, h, True)
            elif abs(h - rs) >= abs(hs - rs) + 2 and _starts_split_phrase(spans, exact, h, False):
                split[c] = h
    return ties, split


@_beam.compiled
def _near_later_siblings(
    spans: np.ndarray, exact: np.ndarray, hyp_len: int, ref_len: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per candidate starting where a paraphrase of more words starts (the paraphrase itself, or a one-word
    exact match L there), rows of the returned masks (hypothesis words, then reference words; -1 for none):

    * rule 25: the one-word exact matches at its reference word from earlier hypothesis words, and those of
      its hypothesis word at earlier reference words, strictly farther from the diagonal than it, any of
      which left free makes taking the candidate lose against coverage; none where a one-to-one weak pair
      proposed twice or more (two modules, or listed both ways) starts right after it in both sentences and
      it is off the diagonal;
    * rule 9, for a non-exact candidate: all the one-word exact matches at its reference word from earlier
      hypothesis words, so that it loses ties as a later exact sibling does.
    """
    n = spans.shape[0]
    near = np.full(n, -1, np.int64)
    earlier = np.full(n, -1, np.int64)
    hyp_words = (hyp_len + 63) >> 6
    masks = np.zeros((2 * n, hyp_words + ((ref_len + 63) >> 6)), np.int64)
    rows = 0
    for c in range(n):
        hs, rs = spans[c, 0], spans[c, 2]
        phrase = False
        copies = 0
        for z in range(n):
            one_to_one = spans[z, 1] == 1 and spans[z, 3] == 1
            phrase |= spans[z, 0] == hs and spans[z, 2] == rs and not exact[z] and not one_to_one
            copies += not exact[z] and one_to_one and spans[z, 0] == hs + 1 and spans[z, 2] == rs + 1
        if not phrase:
            continue
        lose = copies < 2 or hs == rs
        for o in range(n):
            h, r = spans[o, 0], spans[o, 2]
            if not exact[o] or spans[o, 1] != 1 or spans[o, 3] != 1:
                continue
            if r == rs and h < hs:
                if not exact[c]:
                    masks[rows + 1, h >> 6] |= np.int64(1) << (h & 63)
                    earlier[c] = rows + 1
                if lose and abs(h - rs) > abs(hs - rs):
                    masks[rows, h >> 6] |= np.int64(1) << (h & 63)
                    near[c] = rows
            elif h == hs and r < rs and lose and abs(hs - r) > abs(hs - rs):
                masks[rows, hyp_words + (r >> 6)] |= np.int64(1) << (r & 63)
                near[c] = rows
        rows += 2
    return near, earlier, masks[: max(rows, 1)]


@_beam.compiled
def _extending_exact_word(spans: np.ndarray, exact: np.ndarray, c: int) -> bool:
    """Whether candidate ``c`` is a one-word exact match that extends a chunk (a candidate ends right before it
    in both sentences): the later sibling of rules 23 and 24."""
    if not exact[c] or spans[c, 1] != 1 or spans[c, 3] != 1:
        return False
    for z in range(spans.shape[0]):
        if spans[z, 0] + spans[z, 1] == spans[c, 0] and spans[z, 2] + spans[z, 3] == spans[c, 2]:
            return True
    return False


@_beam.compiled
def _starts_split_phrase(spans: np.ndarray, exact: np.ndarray, h: int, same_reference: bool) -> bool:
    """Whether hypothesis word ``h`` starts a paraphrase whose other words form another paraphrase with the
    same reference words (``same_reference``, rule 23) or other ones (rule 24)."""
    n = spans.shape[0]
    for x in range(n):
        if exact[x] or spans[x, 0] != h or spans[x, 1] < 2:
            continue
        for y in range(n):
            if not exact[y] and spans[y, 0] == h + 1 and spans[y, 1] == spans[x, 1] - 1:
                same = spans[y, 2] == spans[x, 2] and spans[y, 3] == spans[x, 3]
                if same == same_reference:
                    return True
    return False


@_beam.compiled
def _exact_before(spans: np.ndarray, exact: np.ndarray, h: int, r: int) -> bool:
    """Whether hypothesis word ``h`` has an exact candidate at a reference word before ``r``."""
    for x in range(spans.shape[0]):
        if exact[x] and spans[x, 0] == h and spans[x, 2] < r:
            return True
    return False


@_beam.compiled
def _rest_contested(spans: np.ndarray, exact: np.ndarray, c: int, o: int) -> int:
    """0, or 1 where phrase ``c``'s shadow by its exact sibling ``o`` drops below coverage (rule 15), or 2 where
    it does not hold at all (rule 17: a one-word non-exact candidate of a hypothesis word before or after the
    phrase, farther from the diagonal, at a reference word of the phrase past ``o``, its word placed exactly
    nowhere before the phrase; as far from the diagonal, 1; after the phrase only without the exclusions below).

    A non-exact candidate starts right after the phrase in both sentences
    (it extends the phrase's chunk), or, where ``hs > rs``, a one-word
    non-exact one lies inside it past ``o`` on both sides, or a reference word of the phrase past
    ``o`` is contested: a candidate of a hypothesis word after the phrase,
    off the diagonal, starts there, and that hypothesis word has another
    placement after the phrase that extends a chunk (a candidate ends just
    before it on both sides). Neither where another
    hypothesis word has a strong candidate at the phrase's reference word, nor
    where ``o``'s hypothesis word has another exact placement on the diagonal
    or before the phrase.
    """
    hs, hl, rs, rl = spans[c, 0], spans[c, 1], spans[c, 2], spans[c, 3]
    n = spans.shape[0]
    level = 0  # rule 17: a one-word weak candidate of a word before the phrase, its word not placed exactly before
    for x in range(n):
        xh, xr = spans[x, 0], spans[x, 2]
        if (
            (xh < hs or xh >= hs + hl) and abs(xh - xr) >= abs(hs - rs) and rs + spans[o, 3] <= xr < rs + rl
            and not exact[x] and spans[x, 1] == 1 and spans[x, 3] == 1 and not _exact_before(spans, exact, xh, rs)
        ):  # fmt: skip
            if abs(xh - xr) > abs(hs - rs):  # farther from the diagonal: no shadow at all
                if xh < hs:
                    return 2
                level = 2  # after the phrase: unless rule 15's exclusions hold
            else:
                level = max(level, 1)  # as far: below coverage, as rule 15
    for x in range(n):
        if spans[x, 2] == rs and spans[x, 0] != hs and (exact[x] or spans[x, 1] > 1 or spans[x, 3] > 1):
            return 0
        if exact[x] and spans[x, 0] == hs and (spans[x, 2] == hs or spans[x, 2] < rs):
            return 0
    if level:
        return level
    for x in range(n):
        if spans[x, 0] == hs + hl and spans[x, 2] == rs + rl and not exact[x]:
            return 1
        if (
            hs > rs and not exact[x] and spans[x, 1] == 1 and spans[x, 3] == 1
            and hs + spans[o, 1] <= spans[x, 0] < hs + hl and rs + spans[o, 3] <= spans[x, 2] < rs + rl
        ):  # fmt: skip
            return 1
    for x in range(n):
        xh, xr = spans[x, 0], spans[x, 2]
        if xh == xr or not rs + spans[o, 3] <= xr < rs + rl:
            continue
        if xh < hs + hl:
            continue
        for y in range(n):  # the contesting word's placements after the phrase
            if spans[y, 0] != xh or spans[y, 2] < rs + rl:
                continue
            for z in range(n):
                if spans[z, 0] + spans[z, 1] == xh and spans[z, 2] + spans[z, 3] == spans[y, 2]:
                    return 1
    return 0


@_beam.compiled
def _weak_offered_before(spans: np.ndarray, exact: np.ndarray, o: int) -> bool:
    """Whether a weak candidate of a later hypothesis word is offered before ``o`` at its reference word (rule 13)."""
    for w in range(spans.shape[0]):
        if (
            not exact[w] and spans[w, 2] == spans[o, 2] and spans[w, 0] > spans[o, 0]
            and (spans[w, 4] < spans[o, 4] or (spans[w, 4] == spans[o, 4] and w < o))
        ):  # fmt: skip
            return True
    return False


# A path's rank holds the criteria of the module docstring, most significant
# first, smaller is better. Every criterion is a sum over the path's matches,
# so a match adds a fixed delta (plus the chunk field when it opens a chunk)
# and children are ranked before they are built. Field indexes (one field per
# stage from _STAGE0, then the detours field, then rule 12's later weak siblings, the last; _CONTESTED is rule
# 15's shadow of a contested phrase, below coverage):
_STRENGTH, _CHUNKS, _SHADOWED, _SIBLING, _COVERED, _CONTESTED, _STRONG, _STAGE0 = range(8)
# The fields are packed _PER_WORD to an int64 word, _FIELD_BITS each, and the
# words compared in order: as each field's sum stays far inside +-2^19 (it
# counts words, matches or chunks), comparing the words is comparing the
# fields one by one, in a third of the operations.
_FIELD_BITS = 20
_MODULE_TERM0 = 5  # the first module's row among the rank terms (_rank_terms)
_PER_WORD = 3


@cache
def _rank_terms(stages: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The unit rank per field, and what one unit of each rank term adds: on taking a match, on opening a chunk
    with it, and on its extension earning nothing (rule 8).

    A rank is int64 words, the fields packed into them (see _PER_WORD). The
    terms are the columns _table computes per candidate: its strength, 1 if
    it is shadowed (rule 5), 1 if its strength is nonzero, 1, 1 if it is a
    detour (rule 6), then one column per stage, 1 for a non-exact match of it,
    then 1 if it is a diagonal weak extension (rule 12), then 1 if it is a
    contested phrase (rule 15: its shadow, in a field right below coverage),
    then 1 if a longer sibling absorbs doubly proposed weak words (rule 18,
    the lowest field), then 1 if a doubly proposed pair is given up (rule 21:
    it takes back the covered word and adds a detour).
    The last field, below the detours, counts rule 12's later weak siblings.
    """
    fields = _STAGE0 + stages + 2
    units = np.zeros((fields, -(-fields // _PER_WORD)), dtype=np.int64)
    for k in range(fields):
        units[k, k // _PER_WORD] = 1 << (_FIELD_BITS * (_PER_WORD - 1 - k % _PER_WORD))
    none, detour, module = 0 * units[0], units[_STAGE0 + stages], units[_STAGE0 : _STAGE0 + stages]
    # taking a match: more strength, shadowed, a match of nonzero strength, one more covered word, one more
    # match of its module if it is not exact (exact matches are credited by their strength; rule 4)
    # (and a detour if it is a diagonal weak extension, rule 12: taken back when it opens a chunk)
    taking = np.array(
        [-units[_STRENGTH], units[_SHADOWED], units[_STRONG], -units[_COVERED], none, *-module, detour, units[_CONTESTED],
         units[-1], units[_COVERED] + detour]
    )
    # opening a chunk: a chunk, and a detour only where it starts one (rule 6)
    opening = np.array([none, none, none, units[_CHUNKS], detour, *(0 * module), -detour, none, none, none])
    # an uncredited extension gives back its covered word and its module count (rule 8)
    no_credit = np.array([none, none, none, units[_COVERED], none, *module, none, none, none, none])
    for table in (units, taking, opening, no_credit):
        table.flags.writeable = False
    return units, taking, opening, no_credit


def _search(
    hyp_len: int,
    ref_len: int,
    spans: np.ndarray,
    exact: np.ndarray,
    stages: int,
    fixed: np.ndarray,
    beam: int,
    one_weak_module: bool,
) -> np.ndarray:
    """Indexes of the best path's matches: the rules' rank terms and flags per candidate (``_table``),
    searched by ``beam.search``.

    Every rule's term is a column of the table, and ``_rank_terms`` says
    which rank fields one unit of it moves; a rule change is a change of
    these columns (or of a flag), not of the compiled search.
    """
    units, taking, opening, no_credit = _rank_terms(stages)
    table, opener_ref, opener_hyp, sibling_masks = _table(spans, exact, stages, fixed, hyp_len, ref_len)
    return _beam.search(
        hyp_len,
        ref_len,
        beam,
        table,
        taking,
        opening,
        no_credit,
        opener_ref,
        opener_hyp,
        one_weak_module,
        # coverage counts reference words as the search reaches them: a phrase match adds its first reference
        # word when taken and each further one when the search passes it (so a phrase does not outrank a single
        # word at its start)
        -units[_COVERED],
        units[_SIBLING],
        # rule 10: a later exact sibling costs a sibling unit while pruning (above coverage), the lowest field at
        # the final pick (where it extends a later weak placement, a sibling unit in both)
        units[_SIBLING],
        units[-2] - units[_SIBLING],
        # rule 11: while pruning, the chunk a match opens or extends is not charged yet (the walk may still extend
        # it); a skip child's chunk is closed
        units[_CHUNKS],
        # rule 12: later weak siblings lose ties (the lowest field), where there are phrase candidates
        units[-1],
        bool((spans[:, 1:4:2] > 1).any()),
        # rules 25 and 9: the earlier siblings (as word masks) whose being free costs a later sibling with a phrase
        sibling_masks,
        # rule 27: the pruning does not compare how many paraphrase matches paths hold (the final pick does)
        _phrase_module_rows(taking, spans),
        _phrase_module_rows(no_credit, spans),
    )


def _phrase_module_rows(terms: np.ndarray, spans: np.ndarray) -> np.ndarray:
    """The part of ``terms`` (one row per rank term) that counts matches of the modules proposing phrases.

    The module fields are rank terms 5 onwards, one per stage (see _rank_terms); only the paraphrase
    module proposes matches of more than one word, which is how it is told from the others here."""
    out = np.zeros_like(terms)
    for stage in np.unique(spans[(spans[:, 1] > 1) | (spans[:, 3] > 1), 4]):
        out[_MODULE_TERM0 + stage] = terms[_MODULE_TERM0 + stage]
    return out


@_beam.compiled
def _table(
    spans: np.ndarray, exact: np.ndarray, stages: int, fixed: np.ndarray, hyp_len: int, ref_len: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per candidate: its spans, stage, flags and opener slot for ``beam.search``, then its rank terms
    (``_rank_terms``): strength, shadowed (rule 5), nonzero strength, 1, detour (rule 6), then per stage 1 for
    a non-exact match of it, a diagonal weak extension (rule 12), a contested phrase (rule 15), an absorbed
    phrase (rule 18), a doubly proposed pair given up (rule 21); rule 8's masks of farther siblings per
    opener slot; and the masks of earlier siblings of rules 25 and 9 (``_near_later_siblings``).

    Strength, in halves (rule 4): an exact match 2, any other ``hl // 2 + rl // 2`` (nothing for a
    single-word stem, synonym or paraphrase match, 1 for ``p`` = ``q r``, 5 for ``from the bottom of my
    heart`` = ``with all my heart``). Compiled with the rules, so that a segment crosses into compiled code
    once (building it with numpy cost as much as the rules).
    """
    detours = _diagonal_detours(spans, exact, hyp_len, ref_len)
    shadowed, contested = _shadowed(spans, exact, hyp_len)
    _shadow_diagonal_start_with_another_copy(spans, exact, shadowed)  # rule 19
    slot, opener_ref, opener_hyp, uncredited, detour_opener, ambiguous = _weak_extension_losers(
        spans, exact, hyp_len, ref_len, detours
    )
    later_weak = _later_weak_placements(spans, exact, hyp_len, stages)
    weak_detours = _diagonal_weak_extensions(spans, exact)
    absorbed = _absorbing_sibling(spans, exact, hyp_len)
    doubled = _doubled_extendable_pairs(spans, exact)
    given_up = _doubled_pairs_given_up(spans, exact, doubled)
    sibling_ties, split_sibling = _split_phrase_siblings(spans, exact)
    near_sibling, earlier_sibling, sibling_masks = _near_later_siblings(spans, exact, hyp_len, ref_len)
    table = np.zeros((spans.shape[0], _beam.TERMS + 9 + stages), np.int64)
    for c in range(spans.shape[0]):
        for k in range(5):
            table[c, k] = spans[c, k]
        table[c, _beam.FLAGS] = (
            exact[c] * _beam.EXACT + uncredited[c] * _beam.UNCREDITED + later_weak[c] * _beam.LATER_WEAK
            + fixed[c] * _beam.FIXED + detour_opener[c] * _beam.DETOUR_OPENER + ambiguous[c] * _beam.AMBIGUOUS
            + sibling_ties[c] * _beam.SIBLING_TIES
        )  # fmt: skip
        table[c, _beam.SLOT] = slot[c]
        table[c, _beam.SPLIT_SIBLING] = split_sibling[c]
        table[c, _beam.NEAR_SIBLING] = near_sibling[c]
        table[c, _beam.EARLIER_SIBLINGS] = earlier_sibling[c]
        strength = 2 if exact[c] else spans[c, 1] // 2 + spans[c, 3] // 2
        terms = table[c, _beam.TERMS :]
        terms[0], terms[1], terms[2], terms[3], terms[4] = strength, shadowed[c], strength > 0, 1, detours[c]
        if not exact[c]:
            terms[5 + spans[c, 4]] = 1
        terms[5 + stages] = weak_detours[c]
        terms[6 + stages] = contested[c]
        terms[7 + stages] = absorbed[c]
        if given_up[c]:  # rule 21: no module count (here), no covered word, and a detour (its own term)
            terms[5 + spans[c, 4]] = 0
            terms[8 + stages] = 1
    return table, opener_ref, opener_hyp, sibling_masks


@_beam.compiled
def _shadow_diagonal_start_with_another_copy(spans: np.ndarray, exact: np.ndarray, shadowed: np.ndarray) -> None:
    """Mark shadowed (in place) every candidate starting at a diagonal place that rule 19 gives up.

    A one-word exact match on the diagonal (``hs == rs``) whose hypothesis word
    also matches exactly at another reference word, with a phrase candidate
    starting at the same place whose reference words no candidate of a
    hypothesis word outside the phrase covers: the jar takes the other copy
    alone rather than the diagonal word (plus a weak match after it) or the
    phrase.
    """
    n = spans.shape[0]
    for c in range(n):
        h = spans[c, 0]
        if spans[c, 2] != h or not exact[c] or spans[c, 1] != 1 or spans[c, 3] != 1:
            continue
        later = False
        for d in range(n):
            later |= exact[d] and spans[d, 0] == h and spans[d, 1] == 1 and spans[d, 2] != h
        if not later:
            continue
        given_up = False
        for p in range(n):  # a phrase starting here whose reference words only its own hypothesis words match
            if spans[p, 0] != h or spans[p, 2] != h or exact[p] or (spans[p, 1] == 1 and spans[p, 3] == 1):
                continue
            alone = True
            for d in range(n):
                outside = spans[d, 0] < h or spans[d, 0] >= h + spans[p, 1]
                alone &= not (outside and spans[d, 2] < h + spans[p, 3] and spans[d, 2] + spans[d, 3] > h)
            given_up |= alone
        if given_up:
            for d in range(n):
                if spans[d, 0] == h and spans[d, 2] == h:
                    shadowed[d] = True


@_beam.compiled
def _doubled_pairs_given_up(spans: np.ndarray, exact: np.ndarray, doubled: np.ndarray) -> np.ndarray:
    """Doubly proposed pairs on or below the diagonal that earn nothing and lose ties (rule 21).

    A pair of ``_doubled_extendable_pairs`` with ``hs >= rs``, extended by a one-word exact match at
    (``hs + 1``, ``rs + 1``) whose hypothesis word has no other exact placement as near the diagonal or nearer,
    and has one farther from it at a reference word no candidate of another hypothesis word covers.
    """
    n = spans.shape[0]
    out = np.zeros(n, np.bool_)
    for c in range(n):
        hs, rs = spans[c, 0], spans[c, 2]
        if not doubled[c] or hs < rs:
            continue
        ext = -1
        for d in range(n):
            if exact[d] and spans[d, 0] == hs + 1 and spans[d, 2] == rs + 1:
                ext = d
        if ext < 0:
            continue
        free_farther = False
        for d in range(n):
            if d == ext or not exact[d] or spans[d, 0] != hs + 1:
                continue
            if abs(spans[d, 0] - spans[d, 2]) <= hs - rs:
                free_farther = False  # a placement as near or nearer: the pair is kept
                break
            mine = hs == rs or spans[d, 2] < rs  # off the diagonal, only a placement before the pair counts
            for e in range(n):
                if spans[e, 2] <= spans[d, 2] < spans[e, 2] + spans[e, 3] and spans[e, 0] != hs + 1:
                    mine = False
            free_farther |= mine
        out[c] = free_farther
    return out


@_beam.compiled
def _doubled_extendable_pairs(spans: np.ndarray, exact: np.ndarray) -> np.ndarray:
    """One-to-one non-exact candidates proposed two or more times that a candidate can extend (rules 20 and 21).

    The pair's copies (the same words, another module or the other listing of a table pair) must be the
    only candidates of its hypothesis word, and a candidate must start right after it in both sentences.
    """
    n = spans.shape[0]
    out = np.zeros(n, np.bool_)
    for c in range(n):
        hs, rs = spans[c, 0], spans[c, 2]
        if exact[c] or spans[c, 1] != 1 or spans[c, 3] != 1:
            continue
        copies = 0
        alone, extendable = True, False
        for d in range(n):
            if spans[d, 0] == hs + 1 and spans[d, 2] == rs + 1:
                extendable = True
            if spans[d, 0] <= hs < spans[d, 0] + spans[d, 1]:
                if spans[d, 0] == hs and spans[d, 1] == 1 and spans[d, 2] == rs and spans[d, 3] == 1:
                    copies += not exact[d]
                else:
                    alone = False
        out[c] = copies >= 2 and alone and extendable
    return out


@_beam.compiled
def _absorbing_sibling(spans: np.ndarray, exact: np.ndarray, hyp_len: int) -> np.ndarray:
    """Phrases that lose ties to a longer sibling absorbing doubly proposed weak words (rule 18).

    Off the diagonal, a paraphrase candidate with a sibling of the same start and reference words and more
    hypothesis words, each of those extra words having a single one-to-one non-exact pair as its only
    candidates, proposed at least twice, at a reference word after the phrase.
    """
    n = spans.shape[0]
    # per hypothesis word: its one-to-one non-exact pair's reference word if all its non-phrase candidates are that
    # one pair, proposed at least twice (-1 otherwise)
    pair_r = np.full(hyp_len, -2, np.int64)
    copies = np.zeros(hyp_len, np.int64)
    for c in range(n):
        if spans[c, 1] == 1 and spans[c, 3] == 1:
            h = spans[c, 0]
            if exact[c]:
                pair_r[h] = -1
            elif pair_r[h] == -2:
                pair_r[h] = spans[c, 2]
                copies[h] = 1
            elif pair_r[h] == spans[c, 2]:
                copies[h] += 1
            else:
                pair_r[h] = -1
    out = np.zeros(n, np.bool_)
    doubled_somewhere = False
    for h in range(hyp_len):
        doubled_somewhere |= pair_r[h] >= 0 and copies[h] >= 2
    if not doubled_somewhere:  # (most segments: nothing to look for)
        return out
    for c in range(n):
        hs, hl, rs, rl = spans[c, 0], spans[c, 1], spans[c, 2], spans[c, 3]
        if exact[c] or hs == rs or (hl == 1 and rl == 1):
            continue
        for d in range(n):
            if d == c or exact[d] or spans[d, 0] != hs or spans[d, 2] != rs or spans[d, 3] != rl or spans[d, 1] <= hl:
                continue
            doubled = True
            for h in range(hs + hl, hs + spans[d, 1]):
                doubled &= pair_r[h] >= rs + rl and copies[h] >= 2
            if doubled:
                out[c] = True
    return out


@_beam.compiled
def _diagonal_weak_extensions(spans: np.ndarray, exact: np.ndarray) -> np.ndarray:
    """One-word weak candidates on the diagonal that lose ties where they extend a chunk (rule 12).

    A non-exact match of one word to one word at ``hs == rs`` whose hypothesis
    word also starts a phrase candidate placed further on in the reference: the
    jar gives the tie to the phrase (``x a t`` / ``x b f t`` with ``a`` -> ``b``
    and ``a t`` -> ``f t`` keeps ``a t`` = ``f t``), as rule 6 does for a
    diagonal match that opens a chunk.
    """
    out = np.zeros(spans.shape[0], np.bool_)
    for c in range(spans.shape[0]):
        if exact[c] or spans[c, 1] != 1 or spans[c, 3] != 1 or spans[c, 0] != spans[c, 2]:
            continue
        for d in range(spans.shape[0]):
            if spans[d, 0] == spans[c, 0] and spans[d, 2] > spans[c, 2] and (spans[d, 1] > 1 or spans[d, 3] > 1):
                out[c] = True
                break
    return out


@_beam.compiled
def _weak_extension_losers(
    spans: np.ndarray, exact: np.ndarray, hyp_len: int, ref_len: int, detours: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Chunk openers whose weak extensions earn no credit, and the weak candidates concerned (rules 8, 14, 26).

    The openers are exact matches with an exact sibling placed earlier (the
    same hypothesis word at an earlier reference position, or the same
    reference word at an earlier hypothesis position) farther from the
    diagonal (larger ``|hs - rs|``; a placement of the same hypothesis word
    one reference word before the diagonal does not count, nor does the same
    reference word matched by the hypothesis word just before). Per
    candidate, its opener slot (-1 if it is none); per slot, the places of
    those siblings as bit masks in 64-bit words, least significant first
    (reference positions, hypothesis positions), for the search to check
    whether one is still free. The weak candidates are the one-to-one
    non-exact ones no phrase candidate overlaps (where phrases compete, the
    paraphrase rules decide).

    Rule 26 adds paraphrases of more than one word with a farther sibling
    paraphrase of the same hypothesis words at an earlier reference word
    (no one-before-the-diagonal exception), and flags as weak every
    one-to-one non-exact candidate right after such a phrase.

    Rule 14 adds the exact diagonal detours (rule 6) that are no rule 8
    opener, flagged as such, with the other exact placements of their
    hypothesis word as the siblings, and flags the *ambiguous* one-to-one
    weak candidates, the only ones whose extension of such a chunk earns
    nothing: their hypothesis word has another one-to-one weak candidate at
    a reference word where an exact candidate starts.
    """
    n = spans.shape[0]
    placed = np.zeros((hyp_len, ref_len), np.bool_)  # the (hs, rs) of exact matches
    for c in range(n):
        if exact[c]:
            placed[spans[c, 0], spans[c, 2]] = True
    slot = np.full(n, -1, np.int64)
    opener_ref = np.zeros((n, (ref_len + 63) >> 6), np.int64)
    opener_hyp = np.zeros((n, (hyp_len + 63) >> 6), np.int64)
    openers = 0
    for c in range(n):
        if not exact[c]:
            continue
        hs, rs = spans[c, 0], spans[c, 2]
        farther = False
        for q in range(_farther_before(rs, hs)):  # the same hypothesis word
            if placed[hs, q] and not (hs > 0 and q == hs - 1):  # one before the diagonal is not farther
                opener_ref[openers, q >> 6] |= np.int64(1) << (q & 63)
                farther = True
        for q in range(_farther_before(hs, rs)):  # the same reference word
            if placed[q, rs] and not (hs > 0 and q == hs - 1):  # nor is the hypothesis word just before it
                opener_hyp[openers, q >> 6] |= np.int64(1) << (q & 63)
                farther = True
        if farther:
            slot[c] = openers
            openers += 1
    phrase_opener = np.zeros(n, np.bool_)
    for c in range(n):  # rule 26: a phrase with a farther sibling phrase of the same hypothesis words
        if exact[c] or (spans[c, 1] == 1 and spans[c, 3] == 1):
            continue
        hs, rs = spans[c, 0], spans[c, 2]
        farther = False
        for o in range(n):
            q = spans[o, 2]
            if (
                not exact[o] and spans[o, 0] == hs and spans[o, 1] == spans[c, 1] and (spans[o, 1] > 1 or spans[o, 3] > 1)
                and q < rs and abs(hs - q) > abs(hs - rs)
            ):  # fmt: skip
                opener_ref[openers, q >> 6] |= np.int64(1) << (q & 63)
                farther = True
        if farther:
            slot[c] = openers
            phrase_opener[c] = True
            openers += 1
    detour_opener = np.zeros(n, np.bool_)
    for c in range(n):  # rule 14: the detours' other placements, as rule 8's farther siblings
        if exact[c] and detours[c] and slot[c] < 0:
            for o in range(n):
                if exact[o] and spans[o, 0] == spans[c, 0] and spans[o, 2] != spans[c, 2]:
                    q = spans[o, 2]
                    opener_ref[openers, q >> 6] |= np.int64(1) << (q & 63)
            slot[c] = openers
            detour_opener[c] = True
            openers += 1
    ambiguous = _ambiguous_weak(spans, exact, hyp_len, ref_len) if detour_opener.any() else np.zeros(n, np.bool_)
    weak = np.zeros(n, np.bool_)
    if openers:
        in_phrase_h = np.zeros(hyp_len, np.bool_)
        in_phrase_r = np.zeros(ref_len, np.bool_)
        for c in range(n):
            if spans[c, 1] > 1 or spans[c, 3] > 1:
                for i in range(spans[c, 0], spans[c, 0] + spans[c, 1]):
                    in_phrase_h[i] = True
                for j in range(spans[c, 2], spans[c, 2] + spans[c, 3]):
                    in_phrase_r[j] = True
        for c in range(n):
            weak[c] = (
                not exact[c] and spans[c, 1] == 1 and spans[c, 3] == 1
                and not in_phrase_h[spans[c, 0]] and not in_phrase_r[spans[c, 2]]
            )  # fmt: skip
    for c in range(n):  # rule 26: a one-to-one weak match right after such a phrase, whatever overlaps it
        if exact[c] or spans[c, 1] != 1 or spans[c, 3] != 1:
            continue
        for o in range(n):
            if phrase_opener[o] and spans[o, 0] + spans[o, 1] == spans[c, 0] and spans[o, 2] + spans[o, 3] == spans[c, 2]:
                weak[c] = True
    return slot, opener_ref[:openers].copy(), opener_hyp[:openers].copy(), weak, detour_opener, ambiguous


@_beam.compiled
def _ambiguous_weak(spans: np.ndarray, exact: np.ndarray, hyp_len: int, ref_len: int) -> np.ndarray:
    """The one-to-one weak candidates rule 14 calls ambiguous.

    Either its hypothesis word has another one at a reference word where an
    exact candidate starts (``back`` = ``rear`` in ``the back covered`` /
    ``the rear is covered the``, as ``back`` = ``covered`` is a synonym too),
    or another module proposes the same pair while the hypothesis word has no
    other one-to-one weak placement and no phrase candidate covers either
    word (``cars`` = ``car``, stem and synonym, in ``the cars`` / ``the car
    the``; not in ``the cars`` / ``the car car the``).
    """
    n = spans.shape[0]
    exact_at = np.zeros(ref_len, np.bool_)
    in_phrase_h = np.zeros(hyp_len, np.bool_)
    in_phrase_r = np.zeros(ref_len, np.bool_)
    for c in range(n):
        if exact[c]:
            exact_at[spans[c, 2]] = True
        if spans[c, 1] > 1 or spans[c, 3] > 1:
            in_phrase_h[spans[c, 0] : spans[c, 0] + spans[c, 1]] = True
            in_phrase_r[spans[c, 2] : spans[c, 2] + spans[c, 3]] = True
    out = np.zeros(n, np.bool_)
    for c in range(n):
        if exact[c] or spans[c, 1] != 1 or spans[c, 3] != 1:
            continue
        elsewhere = twice = False
        for o in range(n):
            if exact[o] or spans[o, 1] != 1 or spans[o, 3] != 1 or spans[o, 0] != spans[c, 0]:
                continue
            if spans[o, 2] != spans[c, 2]:
                elsewhere = True
                out[c] |= exact_at[spans[o, 2]]
            elif o != c:
                twice = True
        out[c] |= twice and not elsewhere and not in_phrase_h[spans[c, 0]] and not in_phrase_r[spans[c, 2]]
    return out


@_beam.compiled
def _later_weak_placements(spans: np.ndarray, exact: np.ndarray, hyp_len: int, stages: int) -> np.ndarray:
    """One-to-one non-exact candidates that are not their hypothesis word's first placement in their module (rule 10).

    ``stern`` / ``sternen sterne`` with stems: ``stern`` = ``sterne`` (1-1) is
    a later placement, ``stern`` = ``sternen`` (1-0) the first. Phrase
    candidates neither are such placements nor make one.
    """
    n = spans.shape[0]
    weak = np.empty(n, np.bool_)
    for c in range(n):
        weak[c] = not exact[c] and spans[c, 1] == 1 and spans[c, 3] == 1
    first = np.full((hyp_len, stages), np.iinfo(np.int64).max, np.int64)  # per word and module, its first rs
    for c in range(n):
        if weak[c]:
            first[spans[c, 0], spans[c, 4]] = min(first[spans[c, 0], spans[c, 4]], spans[c, 2])
    out = np.zeros(n, np.bool_)
    for c in range(n):
        out[c] = weak[c] and spans[c, 2] > first[spans[c, 0], spans[c, 4]]
    return out


@_beam.compiled
def _farther_before(pos: int, other: int) -> int:
    """Positions below this one are earlier and farther from the diagonal than ``pos`` paired with ``other``."""
    return pos if pos <= other else max(0, 2 * other - pos)
