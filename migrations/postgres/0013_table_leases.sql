-- Which server node owns each table when several nodes serve one site (docs/architecture.md, "Several
-- nodes"). The owner holds a lease that it renews; `epoch` grows by one at every grant, so each grant is a
-- new fence: an action is appended only under the lease that is current for its table, checked in the same
-- statement as the append, so a node that lost its lease (paused, cut off) cannot add to the log however
-- late its write arrives. A single node without a cluster writes no lease and checks none.
CREATE TABLE table_leases (
    table_id   uuid PRIMARY KEY,
    node       text NOT NULL,
    epoch      bigint NOT NULL,
    expires_at timestamptz NOT NULL
);

-- The search for leases that ran out (a dead node's tables).
CREATE INDEX table_leases_expiry ON table_leases (expires_at);
