"""python3 -m datatable_client: one request from a shell, or a table's events as they come.

    python3 -m datatable_client ping
    python3 -m datatable_client get '{"table":"stock","count":3}'
    python3 -m datatable_client --follow stock          # one event per line until interrupted

Prints the result as JSON (``--pretty`` indents it). Exits 1 with the error on stderr when the
daemon answers with an error, 2 when it cannot be reached.
"""

import argparse
import json
import sys

from . import Client, ConnectionClosed, DataTableError


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m datatable_client", description=__doc__.splitlines()[0])
    parser.add_argument("--socket", help="the daemon's socket (default: as the daemon finds it)")
    parser.add_argument("--pretty", action="store_true", help="indent the JSON")
    parser.add_argument("--follow", metavar="TABLE", help="print the table's events as they come")
    parser.add_argument("--count", type=int, help="with --follow: stop after this many events")
    parser.add_argument("method", nargs="?", help="the method to call")
    parser.add_argument("params", nargs="?", help="its params, a JSON object")
    args = parser.parse_args(argv)
    if not args.follow and not args.method:
        parser.error("name a method, or --follow TABLE")
    indent = 2 if args.pretty else None
    try:
        with Client(args.socket) as client:
            if args.follow:
                for number, event in enumerate(client.subscribe(args.follow), start=1):
                    print(json.dumps(event.params, sort_keys=True, indent=indent), flush=True)
                    if args.count and number >= args.count:
                        break
                return 0
            params = json.loads(args.params) if args.params else None
            result = client.call(args.method, params)
            print(json.dumps(result, sort_keys=True, indent=indent, ensure_ascii=False))
            return 0
    except json.JSONDecodeError as error:
        print("datatable_client: params are not JSON: %s" % error, file=sys.stderr)
        return 64
    except DataTableError as error:
        print("datatable_client: %s (%s)" % (error.message, error.kind), file=sys.stderr)
        return 1
    except ConnectionClosed as error:
        print("datatable_client: %s" % error, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
