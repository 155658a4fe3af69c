"""Child of the start-up benchmark: start the app the way `companion` does and
render (and hand to a display) the first frame, then exit."""
import sys


def main() -> None:
    from companion.cli import build_app, parser
    args = parser().parse_args(["sim", "--journal", sys.argv[1]])
    app = build_app(args)
    app.frame()
    app.journal.close()


if __name__ == "__main__":
    main()
