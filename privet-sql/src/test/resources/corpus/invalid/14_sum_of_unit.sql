-- error: 1:56
-- reason: privacy unit column 'id'
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) SUM(id, contribution_bounds_per_row => (0, 1)) FROM adult
