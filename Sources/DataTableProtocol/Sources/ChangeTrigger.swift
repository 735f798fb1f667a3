/// The trigger that tells daemons which rows of a relation changed: after each insert, update
/// or delete, a notification on the channel `datatabled` whose payload is JSON —
/// `{"relation": "schema.table", "key": "…", "origin": "…"}` — the row's key as text (an update
/// that changes the key sends the old key too) and the `datatabled.origin` setting of the
/// transaction, which a daemon sets on its own writes so as not to read them back.
public enum ChangeTrigger {
    /// The channel the daemon listens on.
    public static let channel = "datatabled"

    /// The SQL that installs the trigger on `relation` (`schema.table`) keyed by `key`: the
    /// function once (replaced if there), then the trigger (replaced if there).
    public static func sql(relation: String, key: String) -> String {
        let table = quotedRelation(relation)
        let keyLiteral = "'" + key.replacingOccurrences(of: "'", with: "''") + "'"
        return """
            CREATE OR REPLACE FUNCTION datatabled_notify() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
              changed text;
              previous text;
            BEGIN
              IF TG_OP <> 'DELETE' THEN
                EXECUTE format('SELECT ($1).%I::text', TG_ARGV[0]) INTO changed USING NEW;
              END IF;
              IF TG_OP <> 'INSERT' THEN
                EXECUTE format('SELECT ($1).%I::text', TG_ARGV[0]) INTO previous USING OLD;
              END IF;
              IF changed IS NOT NULL THEN
                PERFORM pg_notify('\(channel)', json_build_object('relation', TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME,
                  'key', changed, 'origin', current_setting('datatabled.origin', true))::text);
              END IF;
              IF previous IS NOT NULL AND previous IS DISTINCT FROM changed THEN
                PERFORM pg_notify('\(channel)', json_build_object('relation', TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME,
                  'key', previous, 'origin', current_setting('datatabled.origin', true))::text);
              END IF;
              RETURN NULL;
            END $$;
            CREATE OR REPLACE TRIGGER datatabled_notify AFTER INSERT OR UPDATE OR DELETE ON \(table)
              FOR EACH ROW EXECUTE FUNCTION datatabled_notify(\(keyLiteral));

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
