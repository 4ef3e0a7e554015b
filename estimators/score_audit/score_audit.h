// The score auditor: membership scores -> ROC, AUC, TPR at low FPR, and
// eps lower bounds whose threshold selection is, or is labelled as not,
// a valid confidence statement.
//
// INPUT. One score per trial, higher = "more likely a member": member_scores
// from trials whose challenge point was in the training set, nonmember_scores
// from trials whose point was not. A threshold t flags a trial as a member iff
// score >= t (estimators/roc/roc.h), giving confusion counts (tp, fn, fp, tn).
//
// ASSUMPTIONS (those of every interval estimator, interval_estimator.h): the
// trials are independent; every member score is a draw from one distribution
// and every non-member score from another, so that at a threshold fixed in
// advance tp ~ Binomial(P, TPR) and fp ~ Binomial(N, FPR). The scores must not
// have been used to build the attack itself. Under these, a threshold test
// with rates (FPR, FNR) bounds the mechanism's (eps, delta) from below:
// FPR + e^eps FNR >= 1 - delta and FNR + e^eps FPR >= 1 - delta (Kairouz, Oh
// & Viswanath 2015; Bayesian paper, Zanella-Beguelin et al., ICML 2023,
// Sec. 2.4, Eq. 1). Each method below turns the counts at one threshold into
// an interval for that test's eps.
//
// WHAT IS REPORTED.
//  - the ROC (every distinct threshold with its counts) and the AUC, the
//    Mann-Whitney P[S_member > S_non] + P[S_member = S_non] / 2;
//  - TPR at FPR <= 0.001, 0.01, 0.1: the largest TPR among the ROC points
//    whose empirical FPR meets the level (BestTprAtFpr), with a two-sided
//    Clopper-Pearson interval at confidence 1 - alpha on that threshold's TPR.
//    The threshold depends on the non-member scores only (the lowest one whose
//    FPR meets the level), which are independent of the member scores, so the
//    interval is valid for the TPR of the selected threshold; that threshold's
//    true FPR is not guaranteed to meet the level;
//  - for every registered interval estimator (interval_registry.h) applicable
//    at delta, the eps interval under each threshold selection below; methods
//    defined for delta = 0 only (katz_log) are skipped at delta > 0 and so are
//    those refusing the data (e.g. more trials per side than the Bayesian
//    method accepts); ScoreAudit::skipped_methods says which and why;
//  - a Gaussian-DP lower bound (Nasr, Hayes, Steinke, Balle, Tramer,
//    Jagielski, Carlini & Terzis, "Tight Auditing of Differentially Private
//    Machine Learning", USENIX Security 2023): at a threshold,
//    the one-sided Clopper-Pearson UPPER limits FPR_u and FNR_u at level
//    alpha/2 each (so both hold at once with probability >= 1 - alpha) give
//        mu_lower = max{0, Phi^-1(1 - FPR_u) - Phi^-1(FNR_u)}.
//    Every mu-GDP mechanism's tests satisfy FNR >= Phi(Phi^-1(1 - FPR) - mu)
//    (Dong, Roth & Su, JRSS B 2022, Def. 2.6), so mu_lower is a lower bound on
//    the smallest mu for which the mechanism is mu-GDP with no further
//    assumption. ASSUMING the mechanism's trade-off curve is Gaussian (Nasr et
//    al.'s assumption for DP-SGD), eps_lower(delta) = GaussianDpEpsilon(
//    mu_lower, delta) (accountants/gaussian_dp.h) is a lower bound on its eps
//    at delta (0 where mu_lower = 0). At delta = 0 eps_lower is not reported
//    (nullopt): every mu-GDP profile with mu > 0 has eps(0) = +inf, a property
//    of the assumed Gaussian shape rather than of the data; read mu_lower, or
//    the non-parametric rows, instead.
//
// THRESHOLD SELECTION. Every method (and the Gaussian-DP bound, by its
// mu_lower) is reported under each requested selection:
//  - "split" (valid): the trials are split at random into two halves, each
//    side separately (stratified: floor(P/2) member and floor(N/2) non-member
//    scores form the selection half, the rest the audit half; the draws are a
//    Fisher-Yates permutation per side with Rng(DeriveSeed(seed, {1, side})),
//    side 0 = members, 1 = non-members, core/seeding.h). The threshold
//    maximising the method's lower end over the selection half's ROC (its
//    candidates below, when it has more than 1025 points) is applied to the
//    audit half, whose interval at level alpha is reported. The Gaussian-DP
//    bound chooses its threshold as "bonferroni_all" would on the selection
//    half: its own candidates (ranked by its own proxy), compared at level
//    alpha / K_select, K_select = the selection half's P + N + 1 (the level
//    held at 1e-300 or above; SPLIT FOR A FLAT BOUND below); its interval is
//    still at alpha on the audit half.
//  - "bonferroni" (valid): G thresholds fixed without looking at the audited
//    scores: the user's grid (then the interval uses all the scores), or the
//    quantiles (j + 1/2) / G, j = 0..G-1, of the selection half's pooled
//    scores (then the interval uses the audit half, the same halves as
//    "split"). The quantiles interpolate without overflow (scores near
//    +-1e308 give finite thresholds). At each threshold the interval at level
//    alpha / G; by the union bound all G hold at once with probability
//    >= 1 - alpha; the best is reported.
//  - "bonferroni_all" (valid; not among the default selections): every
//    score of all the scores is a threshold, K = P + N + 1 of them with the
//    one that flags nobody, each interval at level alpha / K, the best
//    reported (BONFERRONI OVER EVERY THRESHOLD below: why the union bound
//    holds although the thresholds come from the data, and for which
//    methods). It needs no split, so its intervals use all the scores; the
//    search is that of max_over_thresholds (EXACT SEARCH below) at level
//    alpha / K.
//  - "max_over_thresholds" (NOT valid): every ROC point of all the scores
//    (searched exactly on a ROC of more than 1025 points, EXACT SEARCH
//    below, for the methods with a bound over counts), the best reported at
//    level alpha. The threshold is chosen on the same data
//    as the interval, so the largest of the K lower ends exceeds the truth
//    more often than alpha (Bayesian paper Sec. 4 reports this selection);
//    its rows carry valid_confidence_statement = false and say so in `note`.
//  - "multi_split" (valid; not among the default selections): the median
//    of S = multi_split_count (default 100) "split" statements, each at
//    level alpha / 2: MultiSplit (multi_split.h; Meinshausen, Meier &
//    Buhlmann, "p-Values for High-Dimensional Regression", JASA 104(488),
//    2009, Thm 3.1 at gamma = 1/2). Split j, j = 0..S-1, is "split" as
//    above with the seed DeriveSeed(seed, {3, j}), i.e. on the halves
//    SplitScoreHalves(member_scores, nonmember_scores, DeriveSeed(seed,
//    {3, j})), at level alpha / 2: every method, and the Gaussian-DP bound,
//    with its own threshold choice on that split's selection half, so
//    split j's lower end is SelectSplit(method, halves_j, delta, alpha /
//    2).lower (GaussianDpSplit(halves_j, delta, alpha / 2).mu_lower), the
//    per-split bound of resampling.h's SplitBoundByName. Reported:
//      lower: the MEDIAN of the S lower ends (the mean of the two middle
//        ones for even S); for the Gaussian-DP bound mu_lower is the median
//        of the S mu_lower, and eps_lower = GaussianDpEpsilon(median mu,
//        delta) as for the other selections (at delta > 0; 0 at mu = 0);
//      upper: the median of the S upper ends (+inf for one-sided methods).
//    Validity (Thm 3.1's proof): if the median lower end exceeds the true
//    eps, at least half of the S lower ends do, so at least half of the
//    splits' statements (each wrong with probability <= alpha / 2) are
//    wrong; by Markov's inequality the fraction of wrong statements reaches
//    1/2 with probability <= (alpha / 2) / (1 / 2) = alpha, however the
//    splits depend on each other. The same holds for the two ends at once
//    (a true eps above the median upper end also makes at least half of the
//    intervals miss), so [median lower, median upper] is a confidence
//    interval at 1 - alpha. Each method keeps its own guarantee (below), as
//    for "split".
//    THE ROW'S THRESHOLD AND COUNTS. A median of S bounds has no single
//    threshold, so the row reports those of one split, the
//    REPRESENTATIVE: the splits ordered by lower end (mu_lower for the
//    Gaussian-DP bound), ties by split index, the one at 0-based position
//    floor((S - 1) / 2): for odd S the split whose lower end IS the median,
//    for even S the lower of the two middle ones (its lower end <= the
//    median). threshold, counts (of its audit half), thresholds_considered
//    (and the Gaussian-DP row's fpr_upper, fnr_upper) are that split's, and
//    level_alpha = alpha / 2 is each split's level (as bonferroni reports
//    each threshold's alpha / G; the statement is at alpha): the method at
//    these counts and level_alpha gives the representative split's
//    interval, not the reported medians. `note` names the representative
//    split and its lower end.
//    Methods refusing the level alpha / 2 are left out of "multi_split"
//    alone (skipped_methods: "multi_split only: ..."). The rows are
//    MultiSplitByName's medians (resampling.h) at the audit's seed and
//    multi_split_count.
// "Best" (the tie rule of experiments/lira_bayes_audit, E1): the larger lower
// end; on a tie the smaller upper end (+inf for one-sided methods); on a tie
// again the first threshold considered: the higher one on a ROC, the earlier
// one in the (ascending) grid.
//
// BONFERRONI OVER EVERY THRESHOLD ("bonferroni_all"). The K thresholds are
// the data's own scores, so the union bound over K intervals fixed in
// advance does not apply as it stands. It holds for the Clopper-Pearson
// limits, by the order-statistic argument: break ties between scores by an
// independent uniform draw (a randomised threshold test, so still a test of
// the mechanism, whose rates the DP inequality constrains); at the j-th
// largest member score the counts are tp = j and the member rate TPR is
// distributed as the uniform order statistic U_(j) ~ Beta(j, P - j + 1),
// while fp is, given the member scores, Binomial(N, FPR) at that fixed
// threshold (and symmetrically at a non-member score). The Clopper-Pearson
// limits of a count k of n are the Beta(k, n - k + 1) and Beta(k + 1, n - k)
// quantiles at the tail level, so at an order statistic each limit misses
// with probability exactly the tail level or less (Beta(j, P - j + 1) lies
// between the two, in the stochastic order). Summing over the P + N scores,
// each at level alpha / K (and the point that flags nobody, which always
// covers), all the rate statements hold at once with probability >= 1 -
// alpha; each method's eps interval follows from its rate limits as at a
// fixed threshold. K stays P + N + 1 when scores tie (the ROC then has fewer
// points): the argument needs K fixed before the data are seen.
//  - Holds for clopper_pearson, clopper_pearson_one_sided (their boxes are
//    Clopper-Pearson limits, rate_box_method.h) and the Gaussian-DP bound
//    (one-sided Clopper-Pearson upper limits); HoldsAtDataThresholds.
//  - Not shown for jeffreys and jeffreys_one_sided (at an order statistic
//    the true rate ~ Beta(k + 1, n - k) is stochastically larger than the
//    Jeffreys posterior Beta(k + 1/2, n - k + 1/2), so its upper limit, the
//    one the lower end uses below the band, misses more often than its
//    level), nor for the Bayesian methods (credible intervals) or katz_log
//    (asymptotic): they are skipped for "bonferroni_all" alone
//    (skipped_methods: "bonferroni_all only: ...").
// Search: that of max_over_thresholds at level alpha / K (EXACT SEARCH
// below): exhaustive up to 1025 points, every corner beyond (both methods
// and the Gaussian-DP bound have a bound over counts). Any search keeps the
// statement valid (all K intervals hold at once); a reduced one could only
// lower the bound.
//
// Validity is the frequentist property of the threshold selection; each
// method keeps its own guarantee: Clopper-Pearson and Jeffreys-style rate
// boxes are exact / approximate frequentist intervals, the Bayesian interval
// is a credible interval (experiments/bayes_coverage), katz_log is
// asymptotic.
//
// THE SPLIT DEPENDS ON THE INPUT ORDER. The halves are drawn by position
// (a permutation of the indices 0..n-1 per side), so the same scores in
// another order, with the same seed, give another split (another equally
// valid statement; the ROC, the AUC, the TPR rows and max_over_thresholds do
// not depend on the order; multi_split's S splits do). For order-independent split and quantile
// bonferroni rows, pass the scores in a canonical order (e.g. sorted).
//
// CANDIDATE THRESHOLDS (the work bound of "split", and of
// "max_over_thresholds" for the methods without a bound over counts).
// A ROC of at most kMaxCandidateThresholds = 1025 points (1024 scores, plus
// the threshold that flags nobody) is searched exhaustively: every method at
// every point. A larger ROC is first reduced to its CORNERS: a point strictly
// inside a run of steps that change only fn (member scores alone) or only fp
// (non-member scores alone) is dropped; the first and last points always
// stay. If more than kMaxCandidateThresholds corners remain, the candidates
// are point 0 and the 1024 corners with the largest approximate lower end
// (the rate box of Wilson score intervals with tail alpha/2 per rate, O(1)
// per point; ties: the earlier point; the split's Gaussian-DP bound ranks by
// its own proxy, the one-sided Wilson upper limits of FPR and FNR in place
// of the Clopper-Pearson ones, probits by a rational approximation). Each
// row's thresholds_considered is the number of candidates, and its note
// says when they were reduced. A method with a bound over counts (below)
// finds the best candidate by the exact search's branch and bound over the
// candidates in ROC order (a run of candidates is bounded by the box of
// counts between its ends, which holds every ROC point between them): the
// same candidate as evaluating each, with fewer evaluations.
//  - "split" stays a valid confidence statement under any reduction: the
//    candidates depend on the selection half only. It keeps this ranked
//    rule for every method: its aim is the audit half's bound, which the
//    selection half's exact maximum need not raise.
//  - For the rate-box methods (clopper_pearson, jeffreys and their one-sided
//    forms) and the Gaussian-DP bound, the corners give THE SAME LARGEST
//    LOWER END as every point. Proof. Rate box: the lower end is
//    MinEpsOverBox of [lo(fn), hi(fn)] x [lo(fp), hi(fp)], with lo and hi
//    non-decreasing in their count (Clopper-Pearson and Jeffreys limits);
//    by eps_from_rates.h it is EpsFromRates(hi(fn), hi(fp)) while the box
//    lies below the band x + y <= 1 - delta, where EpsFromRates decreases in
//    both rates, EpsFromRates(lo(fn), lo(fp)) while it lies above
//    x + y >= 1 + delta, where it increases in both, and 0 in between. Along
//    a run that changes fn alone (fp fixed), "below" holds on a prefix of the
//    run and "above" on a suffix, so the lower end falls, is 0, then rises:
//    its maximum over the run is at one of the run's two ends, which are
//    corners (the same for a run in fp). Gaussian-DP: mu_lower = max{0,
//    -Phi^-1(FPR_u) - Phi^-1(FNR_u)} with one-sided Clopper-Pearson upper
//    limits non-decreasing in fp and fn, so it is non-increasing in each
//    count; a run changes one count, so it is monotone along the run and
//    largest at an end. Every dropped point is inside a run. QED.
//    Ties on the lower end can then resolve to another threshold than the
//    exhaustive search would (the tie rule applies among the corners).
//  - For the Bayesian methods and katz_log no such property is proven: on a
//    ROC of more than 1025 points they are evaluated at the ranked
//    candidates, which may miss the exhaustive maximum (valid for split all
//    the same); beyond 1025 corners their max_over_thresholds lower end is
//    the best of the 1025 candidates, at most the exhaustive one.
//
// EXACT SEARCH ("max_over_thresholds" and "bonferroni_all" on a ROC of more
// than 1025 points, for a method with a bound over counts: the rate-box
// methods, IntervalEstimator::bounds_over_counts, and the Gaussian-DP
// bound). The search returns the corner the point-by-point search over
// every corner returns (the largest lower end; ties: the smaller upper end,
// then the earlier corner), so by the corner proof above its lower end is
// the exhaustive maximum over every point. It is a best-first branch and
// bound over runs of consecutive corners: along a ROC fn falls and fp rises
// as the threshold falls, so the points of a run from corner a to corner b
// have fn in [fn_b, fn_a] and fp in [fp_a, fp_b], and the method's bound
// over that box of counts (IntervalEstimator::BoundOverCounts: the lower
// end at most its value at the fewest errors (fn_b, fp_a) or at the most
// errors (fn_a, fp_b), by the monotonicity of the proof above; the upper
// end at least the better-than-chance terms at the most errors' lower
// limits and the worse-than-chance terms at the fewest errors' upper
// limits, rate_box_method.h; mu_lower at most its value at the fewest
// errors) bounds every corner of the run. A run whose bound cannot beat the
// best corner found so far is dropped; a longer one is halved, a run of at
// most 3 corners evaluated corner by corner. No candidate is dropped
// unbounded, so there is no work bound to state: thresholds_considered is
// the number of corners, and the note says how many intervals and bounds
// the search evaluated (on 10^4 Gaussian scores a side with 7,955 corners,
// 2 intervals and 65 bounds; BranchAndBoundReturnsThePointByPointBestCorner
// in score_audit_test.cc compares it with the point-by-point search on
// separated, overlapping, identical, worse-than-chance and tied scores, and
// BranchAndBoundAtTinyLevels at levels down to 2e-300; an independent review
// compared ~9,500 rows of random, tied, tiny-sample and heavy-tailed scores
// at alpha 0.5 to 1e-6 and delta 0 to 0.3 and found none differ). The
// bound relies on the computed rate limits being non-decreasing in their
// count, as the exact ones are: Boost's Beta inverse, which returned 0 for
// some tails below ~1e-150 without failing, is replaced there by a
// bisection (rate_intervals.h); near the rate-box methods' limit of 10^14
// trials the computed limits are monotone only to ~1e-13 relative, so the
// search's lower end is the exhaustive one to that precision. Its work is
// not bounded by a constant: the most seen is 275 intervals and 2,843 run
// bounds (identical or null scores, 10^5 a side, 0.7 s).
//
// SPLIT FOR A FLAT BOUND (the Gaussian-DP bound). Where the truth is
// Gaussian, mu is the same at every threshold, so mu_lower at level alpha is
// nearly flat across the selection half's ROC and its maximum is noise: the
// luckiest of many low-count thresholds in a tail (a winner's curse the
// audit half does not repeat). Measured with the earlier rule (the
// methods' candidates, ranked by the rate-box proxy, compared at alpha;
// N(mu, 1) vs N(0, 1), 5 * 10^5 a side, delta = 0.05, alpha = 0.1, seed 1):
// at mu = 0.1 the chosen threshold was near 2.8 (tp + fp 1400 to 2000 of
// 5 * 10^5), mu_lower 0.074 on the selection half and 0.040 on the audit
// half, against bonferroni's 0.095; at mu = 3, eps 7.48 against bonferroni's 8.57; one
// of three non-member ratios at mu = 0.3 gave 0. Compared at alpha / K the
// interval widths grow where the counts are small, so the choice favours
// thresholds whose bound holds up on fresh data; the statement stays valid
// (the choice uses the selection half only). The tightness table of
// bazel run //estimators/score_audit:score_audit_benchmark --
// --tightness_seeds=5 shows both rules. The price is power at small
// samples, where the bound at alpha / K is 0 at most thresholds and the
// choice falls back on the tie rule: an independent recomputation (2,000
// draws of N(mu, 1) vs N(0, 1), 200 scores a side, alpha = 0.1) gave a
// mean audit-half mu_lower of 0.007 with this rule against 0.074 with the
// earlier one at mu = 0.5 (positive in 4% of draws against 47%), and the
// two rules level at mu = 1 and 2 (0.484 against 0.485, 1.466 against
// 1.443); both kept P(mu_lower > mu) below alpha (at most 0.006 here). The
// methods keep the rule above: their eps(delta) lower ends are not flat
// across thresholds.
// So every method runs at most 1025 times per selection under "split" (a
// method with a bound over counts far fewer), at
// most kMaxBonferroniThresholds = 1000 times for "bonferroni", and as often
// as the exact search needs (far fewer than the corners where the scores
// separate; see EXACT SEARCH) for the others: with every
// registered method (~1.2 ms per Bayesian interval, ~20 us per rate-box one
// on this project's 2-core machine) a whole audit takes about 7 s plus the
// O(n) passes below, whatever n (plus the exact search's own work, above).
//
// SPEED. Each side is sorted once (a radix sort, estimators/roc/roc.h); the
// split's halves are read off that order (the same halves, no second
// sort), the ROCs built from sorted scores, the quantile grid from the
// merged selection halves, the grid's and the audit half's counts by binary
// search; a selection's candidates are computed once for all its methods.
// Measured (bazel run //estimators/score_audit:score_audit_benchmark;
// clopper_pearson and the Gaussian-DP bound, N(1, 1) vs N(0, 1), one
// thread's CPU time, median of 3, load ~4 on this 2-core machine, 10^6
// scores a side, before -> after): split 0.62 -> 0.28 s, bonferroni 0.47 ->
// 0.20 s, max_over_thresholds 0.40 -> 0.22 s; bonferroni_all 0.26 s. The
// exact search then replaced the 1025 ranked candidates of
// max_over_thresholds and bonferroni_all (same benchmark, load ~3.3, 10^4 /
// 10^5 / 10^6 a side): max_over_thresholds 0.0064 / 0.023 / 0.21 s,
// bonferroni_all 0.0054 / 0.018 / 0.20 s; and the split, its 2 x 1025
// ranked candidates searched by the same branch and bound (same choice),
// 0.021 -> 0.0048 s at 10^4, 0.043 -> 0.028 s at 10^5 (load ~3).
// The search's bounds then cost less (same bounds, same results bit for
// bit): a rate-box run bound needs four rate limits, not eight
// (rate_box_method.h); the limits and the Gaussian-DP probits are memoised
// per thread, so the halves of a run reuse its ends' (core/recent_values.h);
// a probit of an upper limit above 1/2 comes from its complement alone. With
// the corners found in one pass and the TPR rows by binary search (same
// benchmark, commit e118db3, load ~0.6, 10^4 / 10^5 / 10^6 a side):
// bonferroni_all 0.0058 / 0.020 / 0.21 -> 0.0022 / 0.013 / 0.17 s,
// max_over_thresholds 0.0069 / 0.024 / 0.23 -> 0.0025 / 0.017 / 0.18 s,
// split 0.0048 / 0.028 / 0.29 -> 0.0020 / 0.022 / 0.24 s. At 10^4 the rest
// is Beta quantiles in long double (Boost's default policy: ~2.4 us each,
// ~0.6 us in double, where it is also wrong by orders of magnitude for
// some tails, e.g. ibeta_inv(4044, 6.4e11, 1.75e-204)); at 10^6 the radix
// sort (~29%), building the 2 * 10^6-point ROC (~30%, a third of it the
// kernel zeroing fresh pages), its corners (~10%) and the Gaussian-DP
// search (~17%: mu_lower is flat along a Gaussian ROC, so ~3,100 runs are
// bounded at 10^6 against ~135 for Clopper-Pearson).
// Memory: O(n) (the ROC of all the scores, 40 bytes a point, is the
// largest part).
//
// LEVELS. A method that refuses the family level alpha (e.g. the Bayesian
// methods below alpha = 1e-6) is skipped (skipped_methods, with its reason)
// when methods are not named; one that accepts alpha but refuses the
// bonferroni level alpha / G is left out of "bonferroni" alone, and
// skipped_methods says so ("bonferroni only: ..."); likewise for
// "bonferroni_all" (alpha / K) and "multi_split" (alpha / 2). The
// Gaussian-DP bound answers at any level down to 1e-300 (its Beta quantiles
// fall back to a bisection where Boost's inverse gives up); "multi_split"
// needs alpha / 2 >= 1e-300.
//
// WORK BOUNDS (beyond a bound AuditScores refuses the request with an error
// naming the argument):
//  - "bonferroni" calls every method at each of its G thresholds: G is at
//    most kMaxBonferroniThresholds = 1000 (a bonferroni_grid longer than that
//    and bonferroni_quantiles above it are refused). Measured with every
//    registered method (python, 10^3 and 10^4 Gaussian scores a side, this
//    machine): ~4.5 s at G = 1000, ~40 s at G = 10^4, about 4 ms per
//    threshold, almost all of it the Bayesian intervals. Past a few hundred
//    thresholds the alpha / G intervals are so wide that a larger grid
//    rarely raises the bound. The grid's counts come from sorted scores,
//    O((n + G) log n).
//  - "split", and "max_over_thresholds" for a method without a bound over
//    counts: at most kMaxCandidateThresholds candidates per method (above);
//    never refused. The exact search has no bound to state (above).
//  - "multi_split": S = multi_split_count, in [1, kMaxMultiSplits]
//    (multi_split.h), times the work of "split" (each split's halves read
//    off each side sorted once, O(n), then its selection half's ROC and
//    every method at up to 1025 candidates). Measured (python, one thread,
//    N(1, 1) vs N(0, 1), load ~5 on this project's 2-core machine): at 10^3
//    scores a side ~0.03 s per split with clopper_pearson, ~0.9 s with
//    bayesian, ~1.2 s with every registered method (so ~2 minutes at the
//    default S = 100); at 10^6 a side ~0.2 s per split with
//    clopper_pearson. Name methods or lower multi_split_count for a fast
//    audit.
//  - score files (score_files.h): at most 1 GiB and 2^27 scores each.
#ifndef PRIVBENCH_ESTIMATORS_SCORE_AUDIT_SCORE_AUDIT_H_
#define PRIVBENCH_ESTIMATORS_SCORE_AUDIT_SCORE_AUDIT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "estimators/confusion_counts.h"
#include "estimators/interval_estimator.h"
#include "estimators/roc/roc.h"

namespace privbench {

enum class ThresholdSelection {
  kSplit,
  kBonferroni,
  kMaxOverThresholds,
  kBonferroniAll,
  kMultiSplit
};

// "split", "bonferroni", "max_over_thresholds", "bonferroni_all",
// "multi_split".
std::string_view ThresholdSelectionName(ThresholdSelection selection);
// The inverse; an unknown name is an error naming selections.
Result<ThresholdSelection> ParseThresholdSelection(const std::string& name);

// The FPR levels of ScoreAudit::tpr_at_fpr.
inline constexpr double kAuditFprLevels[] = {0.001, 0.01, 0.1};

// The most thresholds "bonferroni" evaluates (the work bound above).
inline constexpr int64_t kMaxBonferroniThresholds = 1000;
// The most ROC thresholds "split" evaluates a method at, and
// "max_over_thresholds" one without a bound over counts (CANDIDATE
// THRESHOLDS above).
inline constexpr int64_t kMaxCandidateThresholds = 1025;

struct ScoreAuditOptions {
  double alpha = 0.05;  // in (0, 1): confidence 1 - alpha
  double delta = 0.0;   // in [0, 1)
  // Each at most once, at least one; rows are reported in this order.
  // ("bonferroni_all" and "multi_split" are not among the defaults: ask
  // for them.)
  std::vector<ThresholdSelection> selections = {ThresholdSelection::kSplit,
                                                ThresholdSelection::kBonferroni,
                                                ThresholdSelection::kMaxOverThresholds};
  // Of the split (used by "split" and quantile "bonferroni"); multi_split's
  // splits are DeriveSeed(seed, {3, j}).
  uint64_t seed = 0;
  // "bonferroni": the user's thresholds (non-empty, finite, ascending;
  // repeats allowed and counted in G), or nullopt for the quantiles of the
  // selection half. At most kMaxBonferroniThresholds thresholds.
  std::optional<std::vector<double>> bonferroni_grid;
  // G when bonferroni_grid is nullopt; in [1, kMaxBonferroniThresholds].
  int64_t bonferroni_quantiles = 16;
  // S of "multi_split", in [1, kMaxMultiSplits] (multi_split.h).
  int64_t multi_split_count = 100;
  // Interval estimators by registry name, each at most once; empty: every
  // registered one that applies (see the header comment). A named method that
  // does not apply at delta is an error.
  std::vector<std::string> methods;
};

struct TprAtFpr {
  double max_fpr = 0.0;
  OperatingPoint point;  // the selected threshold and its counts
  double tpr = 0.0;
  double tpr_lower = 0.0, tpr_upper = 1.0;  // Clopper-Pearson, two-sided, 1 - alpha
};

// One method's interval under one selection.
struct AuditInterval {
  std::string method;  // registry name
  ThresholdSelection selection = ThresholdSelection::kSplit;
  double threshold = 0.0;  // flag member iff score >= threshold (+inf: nobody)
  ConfusionCounts counts;  // of the data the interval is computed on
  double lower = 0.0;      // eps lower end
  double upper = 0.0;      // eps upper end; +inf for one-sided methods
  // alpha of this interval (alpha, alpha / G, alpha / K; multi_split: each
  // split's alpha / 2)
  double level_alpha = 0.0;
  int64_t thresholds_considered = 0;
  bool valid_confidence_statement = false;
  std::string note;
};

// The Gaussian-DP bound under one selection.
struct GaussianDpBound {
  ThresholdSelection selection = ThresholdSelection::kSplit;
  double threshold = 0.0;
  ConfusionCounts counts;
  double fpr_upper = 1.0, fnr_upper = 1.0;  // one-sided CP, level_alpha / 2 each
  double mu_lower = 0.0;
  std::optional<double> eps_lower;  // at delta; nullopt at delta = 0
  double level_alpha = 0.0;
  int64_t thresholds_considered = 0;
  bool valid_confidence_statement = false;
  std::string note;
};

struct SkippedMethod {
  std::string method, reason;
};

struct ScoreAudit {
  RocCurve roc;                      // every distinct threshold; roc.auc is the AUC
  std::vector<TprAtFpr> tpr_at_fpr;  // one per kAuditFprLevels entry
  std::vector<std::string> methods;  // audited, in registry (or the given) order
  std::vector<SkippedMethod> skipped_methods;
  // The G thresholds of "bonferroni" and where they came from ("user grid" or
  // "quantiles of the selection half"); empty when not requested.
  std::vector<double> bonferroni_grid;
  std::string bonferroni_grid_source;
  // For each selection (options order), every method (methods order).
  std::vector<AuditInterval> intervals;
  std::vector<GaussianDpBound> gaussian_dp;  // one per selection
};

// The whole audit. Errors name the argument: "member_scores must be
// non-empty", "nonmember_scores[3] must be finite, got nan", alpha, delta,
// selections, bonferroni_grid, bonferroni_quantiles (each also beyond the
// work bound kMaxBonferroniThresholds), multi_split_count, methods, and a
// split whose half would lack a member or a non-member score.
Result<ScoreAudit> AuditScores(const std::vector<double>& member_scores,
                               const std::vector<double>& nonmember_scores,
                               const ScoreAuditOptions& options);

// ---- Building blocks (AuditScores is made of these; a study with its own
// halves or grid, such as E1, can call them directly). ----

// The tie rule: a is better than b.
bool BetterInterval(double lower_a, double upper_a, double lower_b, double upper_b);

struct ScoreHalves {
  std::vector<double> select_member, select_nonmember;  // chooses / calibrates
  std::vector<double> audit_member, audit_nonmember;    // the reported interval's data
};
// The stratified seeded split described above (scores keep their input order
// within each half). Needs >= 2 scores on each side.
Result<ScoreHalves> SplitScoreHalves(const std::vector<double>& member_scores,
                                     const std::vector<double>& nonmember_scores, uint64_t seed);

// Quantiles (j + 1/2) / g, j = 0..g-1 (type 7, core/stats.h) of the selection
// half's member and non-member scores pooled: ascending.
Result<std::vector<double>> CalibrationQuantileGrid(const ScoreHalves& halves, int64_t g);

// One method under one selection; `alpha` is the family level (the grid's
// intervals are at alpha / grid size). Rows carry method, selection, validity
// and a note.
Result<AuditInterval> SelectSplit(const IntervalEstimator& method, const ScoreHalves& halves,
                                  double delta, double alpha);
Result<AuditInterval> SelectOnGrid(const IntervalEstimator& method,
                                   const std::vector<double>& member_scores,
                                   const std::vector<double>& nonmember_scores,
                                   const std::vector<double>& grid, double delta, double alpha);
Result<AuditInterval> SelectMaxOverThresholds(const IntervalEstimator& method, const RocCurve& roc,
                                              double delta, double alpha);
// "bonferroni_all" on the ROC of all the scores; an error for a method that
// HoldsAtDataThresholds does not name.
Result<AuditInterval> SelectBonferroniAll(const IntervalEstimator& method, const RocCurve& roc,
                                          double delta, double alpha);

// The methods "bonferroni_all" runs: those whose intervals are shown to hold
// at thresholds taken from the data (clopper_pearson,
// clopper_pearson_one_sided; BONFERRONI OVER EVERY THRESHOLD above).
bool HoldsAtDataThresholds(std::string_view method);
// alpha / K, K = P + N + 1 (the counts of the ROC's first point); an error
// naming alpha where it is below 1e-300.
Result<double> BonferroniAllLevel(const RocCurve& roc, double alpha);

// The Gaussian-DP bound at one threshold's counts, at level `level_alpha`
// (selection, threshold and the considered count are left for the caller).
Result<GaussianDpBound> GaussianDpAtCounts(const ConfusionCounts& counts, double delta,
                                           double level_alpha);
Result<GaussianDpBound> GaussianDpSplit(const ScoreHalves& halves, double delta, double alpha);
Result<GaussianDpBound> GaussianDpOnGrid(const std::vector<double>& member_scores,
                                         const std::vector<double>& nonmember_scores,
                                         const std::vector<double>& grid, double delta,
                                         double alpha);
Result<GaussianDpBound> GaussianDpMaxOverThresholds(const RocCurve& roc, double delta,
                                                    double alpha);
Result<GaussianDpBound> GaussianDpBonferroniAll(const RocCurve& roc, double delta, double alpha);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_SCORE_AUDIT_SCORE_AUDIT_H_
