-- The whole WHERE grammar: IN (with the JSqlParser 5.3 precedence trap), BETWEEN, NOT, OR, literal on the left.
-- columns: n
-- group_by:
-- aggregations: Count(n)
-- selection: none
-- budget: epsilon=1
-- contributions: L0=1 Linf=estimated
-- filter: ((education IN ('Bachelors', 'Masters') AND (age >= 30 AND age <= 50)) OR (NOT (sex = 'Male') AND hours_per_week > 40) OR age < 20)
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1)
  COUNT(*) AS n
FROM adult
WHERE education IN ('Bachelors', 'Masters') AND age BETWEEN 30 AND 50
   OR (NOT sex = 'Male' AND 40 < hours_per_week)
   OR age < 20
