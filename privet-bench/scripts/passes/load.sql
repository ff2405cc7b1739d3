-- setup
CREATE TABLE customer AS SELECT * FROM read_csv('/tmp/tpch1/customer.csv', header=true);
CREATE TABLE orders AS SELECT * FROM read_csv('/tmp/tpch1/orders.csv', header=true);
CREATE TABLE lineitem AS SELECT * FROM read_csv('/tmp/tpch1/lineitem.csv', header=true);
CREATE TABLE nation AS SELECT * FROM read_csv('/tmp/tpch1/nation.csv', header=true);
CREATE TABLE region AS SELECT * FROM read_csv('/tmp/tpch1/region.csv', header=true);
CREATE TABLE supplier AS SELECT * FROM read_csv('/tmp/tpch1/supplier.csv', header=true)
;;
-- count
SELECT COUNT(*) FROM lineitem
