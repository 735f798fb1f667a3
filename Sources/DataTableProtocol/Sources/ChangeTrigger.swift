/// The triggers that tell daemons which rows of a relation changed: after each statement that
/// inserts, updates or deletes rows, notifications on the channel `datatabled` whose payloads are
/// JSON — `{"relation": "schema.table", "keys": ["…", …], "origin": "…"}` — the changed rows'
/// keys as text (an update that changes a key lists the old key too), split over as many
/// notifications as their length needs, and the `datatabled.origin` setting of the transaction,
/// which a daemon sets on its own writes so as not to read them back. A statement that changes
/// more than ``mostKeys`` rows, and a `TRUNCATE`, send `"all": true` instead of keys: every row
/// is read again.
///
/// A trigger of an earlier form, one notification per row (`"key": "…"`), is still understood,
/// and replaced when the SQL is run again.
public enum ChangeTrigger {
    /// The channel the daemon listens on.
    public static let channel = "datatabled"

    /// The most keys one statement's notifications list; past it they say every row changed.
    public static let mostKeys = 10_000

    /// The bytes of keys in one notification, at most (PostgreSQL takes payloads below 8000).
    static let payloadKeyBytes = 6000

    /// The SQL that installs the triggers on `relation` (`schema.table`) keyed by `key`: the
    /// function once (replaced if there), then the triggers (replaced if there).
    public static func sql(relation: String, key: String) -> String {
        let table = quotedRelation(relation)
        let keyLiteral = "'" + key.replacingOccurrences(of: "'", with: "''") + "'"
        return """
            CREATE OR REPLACE FUNCTION datatabled_notify() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
              relation text := TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME;
              origin text := current_setting('datatabled.origin', true);
              changed text[];
              batch text[] := '{}';
              size int := 0;
              one text;
            BEGIN
              IF TG_OP = 'INSERT' THEN
                EXECUTE format('SELECT array_agg(DISTINCT %I::text) FROM datatabled_new', TG_ARGV[0]) INTO changed;
              ELSIF TG_OP = 'DELETE' THEN
                EXECUTE format('SELECT array_agg(DISTINCT %I::text) FROM datatabled_old', TG_ARGV[0]) INTO changed;
              ELSIF TG_OP = 'UPDATE' THEN
                EXECUTE format('SELECT array_agg(DISTINCT k) FROM (SELECT %1$I::text AS k FROM datatabled_new '
                  'UNION ALL SELECT %1$I::text FROM datatabled_old) AS keys', TG_ARGV[0]) INTO changed;
              END IF;
              IF TG_OP = 'TRUNCATE' OR cardinality(changed) > \(mostKeys) THEN
                PERFORM pg_notify('\(channel)', json_build_object('relation', relation, 'all', true,
                  'origin', origin)::text);
                RETURN NULL;
              END IF;
              FOREACH one IN ARRAY coalesce(changed, '{}') LOOP
                IF octet_length(to_json(one)::text) > \(payloadKeyBytes) THEN
                  PERFORM pg_notify('\(channel)', json_build_object('relation', relation, 'all', true,
                    'origin', origin)::text);
                  RETURN NULL;
                END IF;
                IF size + octet_length(to_json(one)::text) > \(payloadKeyBytes) THEN
                  PERFORM pg_notify('\(channel)', json_build_object('relation', relation, 'keys', batch,
                    'origin', origin)::text);
                  batch := '{}';
                  size := 0;
                END IF;
                batch := batch || one;
                size := size + octet_length(to_json(one)::text) + 1;
              END LOOP;
              IF size > 0 THEN
                PERFORM pg_notify('\(channel)', json_build_object('relation', relation, 'keys', batch,
                  'origin', origin)::text);
              END IF;
              RETURN NULL;
            END $$;
            DROP TRIGGER IF EXISTS datatabled_notify ON \(table);
            CREATE OR REPLACE TRIGGER datatabled_insert AFTER INSERT ON \(table)
              REFERENCING NEW TABLE AS datatabled_new
              FOR EACH STATEMENT EXECUTE FUNCTION datatabled_notify(\(keyLiteral));
            CREATE OR REPLACE TRIGGER datatabled_update AFTER UPDATE ON \(table)
              REFERENCING OLD TABLE AS datatabled_old NEW TABLE AS datatabled_new
              FOR EACH STATEMENT EXECUTE FUNCTION datatabled_notify(\(keyLiteral));
            CREATE OR REPLACE TRIGGER datatabled_delete AFTER DELETE ON \(table)
              REFERENCING OLD TABLE AS datatabled_old
              FOR EACH STATEMENT EXECUTE FUNCTION datatabled_notify(\(keyLiteral));
            CREATE OR REPLACE TRIGGER datatabled_truncate AFTER TRUNCATE ON \(table)
              FOR EACH STATEMENT EXECUTE FUNCTION datatabled_notify(\(keyLiteral));

            """
    }

    /// `name` as a quoted SQL identifier.
    public static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `schema.table` as two quoted identifiers (`table` alone as one).
    public static func quotedRelation(_ relation: String) -> String {
        guard let dot = relation.firstIndex(of: ".") else { return quoted(relation) }
        return quoted(String(relation[..<dot])) + "." + quoted(String(relation[relation.index(after: dot)...]))
    }
}
