-- error: 1:60
-- reason: must be a column name
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) SUM(capital_gain - capital_loss, contribution_bounds_per_row => (0, 1000)) FROM adult
