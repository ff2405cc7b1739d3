-- plain
SELECT COUNT(*) FROM orders, customer, nation WHERE c_custkey = o_custkey AND c_nationkey = n_nationkey
;;
-- pairs group by u
SELECT COUNT(*), SUM(LEAST(n, 64)) FROM (SELECT c_custkey AS u, COUNT(*) AS n FROM orders, customer, nation WHERE c_custkey = o_custkey AND c_nationkey = n_nationkey GROUP BY c_custkey)
;;
-- pairs group by o_custkey
SELECT COUNT(*), SUM(LEAST(n, 64)) FROM (SELECT o_custkey AS u, COUNT(*) AS n FROM orders, customer, nation WHERE c_custkey = o_custkey AND c_nationkey = n_nationkey GROUP BY o_custkey)
;;
-- eager: orders per custkey then join
SELECT COUNT(*), SUM(LEAST(n, 64)) FROM (SELECT o_custkey AS u, COUNT(*) AS n FROM orders GROUP BY o_custkey) o, customer, nation WHERE c_custkey = u AND c_nationkey = n_nationkey
;;
-- bare group by orders custkey
SELECT COUNT(*) FROM (SELECT o_custkey, COUNT(*) FROM orders GROUP BY o_custkey)
