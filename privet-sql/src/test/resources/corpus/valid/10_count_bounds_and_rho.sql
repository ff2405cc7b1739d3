-- COUNT with per-group bounds sets L-infinity; a rho-zCDP budget; quoted identifiers; comments; a tab.
-- columns: Edu, n, units
-- group_by: education
-- aggregations: Count(n); CountDistinctUnits(units)
-- selection: public 2
-- budget: rho=0.5
-- contributions: L0=1 Linf=3
-- filter:
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (rho = 0.5, public_groups = ('Bachelors', 'HS-grad')) -- a comment
	"education" AS "Edu",
  COUNT(*, contribution_bounds_per_group => (0, 3)) AS n, /* block comment, with => inside */
  COUNT(DISTINCT id) AS units
FROM `adult`
GROUP BY 1;
