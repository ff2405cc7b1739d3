-- error: 1:144
-- reason: needs delta > 0
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (rho = 0.5, privacy_unit_column = id, max_groups_contributed = 1) education, COUNT(*) AS n FROM adult GROUP BY education
