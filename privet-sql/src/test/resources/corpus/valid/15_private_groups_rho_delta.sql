-- Private groups under a rho-plus-delta (approximate zCDP) budget, Gaussian thresholding.
-- columns: education, n, hours
-- group_by: education
-- aggregations: Count(n); Mean(hours, hours_per_week, -102400, 102400, perGroup 0..100)
-- selection: private
-- budget: rho=0.5 delta=1e-6
-- contributions: L0=2 Linf=1
-- filter:
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (rho = 0.5, delta = 1e-6, max_groups_contributed = 2, privacy_unit_column = id, group_selection_strategy = GAUSSIAN_THRESHOLD)
  education, COUNT(*) AS n, AVG(hours_per_week, contribution_bounds_per_group => (0, 100)) AS hours
FROM adult GROUP BY education
