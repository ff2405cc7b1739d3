-- ZetaSQL's max_rows_contributed = m (issue 24): at most m rows per privacy unit in total, over
-- all groups (docs/proofs/rows-contributed.md), with ZetaSQL's max_groups_contributed = NULL.
-- columns: education, n, hours
-- group_by: education
-- aggregations: Count(n); Sum(hours, hours_per_week, 0, 100)
-- selection: private
-- budget: epsilon=1 delta=1e-6
-- contributions: L0=3 Linf=3 maxRows=3
-- filter:
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6, max_groups_contributed = NULL, max_rows_contributed = 3, privacy_unit_column = id)
  education, COUNT(*) AS n, SUM(hours_per_week, contribution_bounds_per_row => (0, 100)) AS hours
FROM adult GROUP BY education
