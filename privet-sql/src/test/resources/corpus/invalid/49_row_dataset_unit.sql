-- error: 1:78
-- reason: one row per privacy unit
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, privacy_unit_column = age) COUNT(*) FROM adult_rows
