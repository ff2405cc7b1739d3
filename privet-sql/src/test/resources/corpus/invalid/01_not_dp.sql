-- error: 1:8
-- reason: only differentially private
SELECT education, COUNT(*) FROM adult GROUP BY education
