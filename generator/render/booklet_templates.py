"""The booklet's, the designer's report's and the print-first page's templates
(templates/booklet/, templates/report/, templates/printfirst/, the project's before the
tool's), run in Jinja2's sandbox: a template is not trusted, sees only the values the build
gives it, and any mistake in it is an error at its own file and line. What
can be known of them without rendering is checked before a build draws anything
(check_templates).
"""
from __future__ import annotations

import traceback
from dataclasses import fields, is_dataclass

import jinja2
import jinja2.meta
from jinja2 import nodes
from jinja2.loaders import split_template_path
from jinja2.sandbox import ImmutableSandboxedEnvironment, safe_range

from ..core.errors import DataError, PnpError, Problem
from ..core.files import read_bytes_inside
from ..layout.booklet import BookletContent
from ..load.project import TOOL_TEMPLATES, Project


# The booklet's template, under templates/, and all it is given: the values the build passes
# in, and of Jinja2's globals only the (sandbox's bounded) range the shipped template uses.
BOOKLET_TEMPLATE = "booklet/booklet.html.j2"
TEMPLATE_VALUES = ("booklet", "fonts", "stylesheet", "pad_pages")
REPORT_TEMPLATE = "report/report.html.j2"
REPORT_VALUES = ("report", "fonts", "stylesheet")
PRINT_FIRST_TEMPLATE = "printfirst/printfirst.html.j2"
PRINT_FIRST_VALUES = ("page", "fonts", "stylesheet")
# What each template is, by name, and the values it is given.
TEMPLATES = {BOOKLET_TEMPLATE: ("booklet", TEMPLATE_VALUES), REPORT_TEMPLATE: ("report", REPORT_VALUES),
             PRINT_FIRST_TEMPLATE: ("print-first page", PRINT_FIRST_VALUES)}
TEMPLATE_GLOBALS = {"range": safe_range}


class TemplateLoader(jinja2.BaseLoader):
    """Templates from the project's templates/, then the tool's, read as project files: a link
    out of the project is refused unread, and so is an oversized file. Each template's name in
    errors (and in Jinja2's tracebacks) is its path as a user sees it."""

    def __init__(self, project: Project):
        self.project = project
        self.loaded: set[str] = set()

    def get_source(self, environment, template):
        for folder in self.project.template_dirs:
            path = folder.joinpath(*split_template_path(template))
            if not (path.is_file() or path.is_symlink()):
                continue
            # Named by where it is, not where a link in its place leads.
            display = "/".join([self.project.display(folder), *split_template_path(template)])
            data, problems = read_bytes_inside(path, [self.project.root, TOOL_TEMPLATES], display)
            if problems:
                raise DataError(problems)
            try:
                source = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise DataError([Problem(display, 0, "", f"a template is UTF-8 text: {exc}")]) from None
            self.loaded.add(display)
            return source, display, lambda: True      # an environment lives for one render
        raise jinja2.TemplateNotFound(template)


class TemplateUndefined(jinja2.StrictUndefined):
    """StrictUndefined whose error carries the missing name (the key of the error) and says
    what the value does have."""

    __slots__ = ()
    template = TEMPLATES[BOOKLET_TEMPLATE]        # (what, values) of the template it is raised in

    def __init__(self, hint=None, obj=jinja2.utils.missing, name=None, exc=jinja2.UndefinedError):
        def error(message):
            found = exc(message)
            found.key = str(name) if name is not None else ""
            return found
        super().__init__(hint, obj, name, error)

    @property
    def _undefined_message(self) -> str:
        obj, name = self._undefined_obj, self._undefined_name
        if self._undefined_hint:
            return self._undefined_hint
        if obj is jinja2.utils.missing:
            return undefined_name(name, *self.template)
        if is_dataclass(obj):
            return no_such(type(obj).__name__, name, [f.name for f in fields(obj)])
        if isinstance(obj, dict):
            return no_such(type(obj).__name__, name, sorted(map(str, obj)))
        return f"a {type(obj).__name__} has no '{name}'"


def undefined_name(name: str, what: str = "booklet", values: tuple = TEMPLATE_VALUES) -> str:
    return f"'{name}' is undefined (a {what} template has {', '.join(values + tuple(TEMPLATE_GLOBALS))})"


def no_such(what: str, name, has: list[str]) -> str:
    return f"{what} has no '{name}' (it has {', '.join(has) or 'nothing'})"


def not_found(name: str, project: Project) -> str:
    return f"no template '{name}' in {', '.join(map(str, project.template_dirs))}"


class TemplateSandbox(ImmutableSandboxedEnvironment):
    """Jinja2's sandbox: no Python internals, no changing the values. Reaching into something
    undefined reports what is undefined, not the internals of Jinja2's stand-in for it."""

    def getattr(self, obj, attribute):
        if isinstance(obj, jinja2.Undefined):
            obj._fail_with_undefined_error()
        return super().getattr(obj, attribute)

    def getitem(self, obj, argument):
        if isinstance(obj, jinja2.Undefined):
            obj._fail_with_undefined_error()
        return super().getitem(obj, argument)


class CompiledTemplates(jinja2.BytecodeCache):
    """Templates compiled once per process: a bucket is keyed by the template's name and file,
    and Jinja2 drops its code when the source's checksum differs, so an edited template is
    compiled again. The loader still reads (and checks) the source every time."""

    def __init__(self):
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket):
        code = self.code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket):
        self.code[bucket.key] = bucket.bytecode_to_string()


# Every environment is made the same way (template_environment), so their code is the same.
COMPILED_TEMPLATES = CompiledTemplates()


# Undefined values of each template, saying what that template is given.
UNDEFINED = {name: type("TemplateUndefined", (TemplateUndefined,), {"__slots__": (), "template": template})
             for name, template in TEMPLATES.items()}


def template_environment(project: Project, template: str = BOOKLET_TEMPLATE) -> TemplateSandbox:
    """The sandbox with the project's templates, strict about undefined values (those of
    `template`), escaping HTML."""
    environment = TemplateSandbox(
        loader=TemplateLoader(project), autoescape=True, undefined=UNDEFINED[template],
        trim_blocks=True, lstrip_blocks=True, bytecode_cache=COMPILED_TEMPLATES)
    environment.globals.clear()
    environment.globals.update(TEMPLATE_GLOBALS)
    return environment


def template_problem(exc: Exception, loader: TemplateLoader, template: str = BOOKLET_TEMPLATE) -> Problem:
    """A template's mistake at its file and line: Jinja2 gives a syntax error its own; for the
    rest, its tracebacks carry the template's name and line in the frames it ran."""
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return Problem(exc.filename or exc.name or "", exc.lineno, "", f"template syntax error: {exc.message}")
    file, line = f"templates/{template}", 0
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename in loader.loaded:
            file, line = frame.filename, frame.lineno
    key = getattr(exc, "key", "")
    if isinstance(exc, jinja2.exceptions.SecurityError):
        message = f"not allowed in a {TEMPLATES[template][0]} template: {exc}"
    elif isinstance(exc, jinja2.TemplateNotFound):
        message = not_found(exc.name, loader.project)
    elif isinstance(exc, jinja2.TemplateError):
        message = str(exc)
    else:
        message = f"the template failed: {exc} ({type(exc).__name__})"
    return Problem(file, line, key, message)


def render_html(project: Project, values: dict, template: str = BOOKLET_TEMPLATE) -> str:
    """`template` (the booklet's, or another under templates/ such as the report's) filled
    with `values` in the sandbox."""
    environment = template_environment(project, template)
    try:
        return environment.get_template(template).render(values)
    except PnpError:
        raise
    except Exception as exc:      # whatever a template does wrong, since it is not ours
        raise DataError([template_problem(exc, environment.loader, template)]) from None


def check_templates(project: Project) -> list[Problem]:
    """What can be known of the booklet's and the report's templates without rendering them:
    syntax, names that are not among the values a template gets, and the internals the
    sandbox refuses."""
    environment = template_environment(project)
    loader = environment.loader
    booklet_fields = [f.name for f in fields(BookletContent)]
    problems, seen = [], set()
    # (template, where it is included, the template a build renders that it is part of)
    pending = [(name, None, name) for name in reversed(TEMPLATES)]
    while pending:
        name, included_at, rendered = pending.pop()
        if (name, rendered) in seen:
            continue
        seen.add((name, rendered))
        what, values = TEMPLATES[rendered]
        try:
            source, file, _ = loader.get_source(environment, name)
            tree = environment.parse(source, name, file)
        except DataError as exc:
            problems += exc.problems
            continue
        except jinja2.TemplateNotFound:
            where = included_at or (f"templates/{name}", 0)
            problems.append(Problem(*where, "", not_found(name, project)))
            continue
        except jinja2.TemplateSyntaxError as exc:
            problems.append(template_problem(exc, loader, rendered))
            continue
        if included_at is None:      # an included template also sees its includer's variables
            known = set(values) | set(environment.globals)
            for unknown in sorted(jinja2.meta.find_undeclared_variables(tree) - known):
                line = next(n.lineno for n in tree.find_all(nodes.Name) if n.name == unknown)
                problems.append(Problem(file, line, unknown, undefined_name(unknown, what, values)))
        # `booklet` is a BookletContent wherever the booklet's template does not assign it itself.
        ours = rendered == BOOKLET_TEMPLATE and \
            not any(n.name == "booklet" and n.ctx != "load" for n in tree.find_all(nodes.Name))
        for node, attribute in attributes(tree):
            if attribute.startswith("_"):
                problems.append(Problem(file, node.lineno, attribute,
                                        f"not allowed in a {what} template: access to attribute '{attribute}' is unsafe"))
            elif ours and isinstance(node.node, nodes.Name) and node.node.name == "booklet" and attribute not in booklet_fields:
                problems.append(Problem(file, node.lineno, attribute, no_such("BookletContent", attribute, booklet_fields)))
        for node in tree.find_all((nodes.Extends, nodes.Include, nodes.Import, nodes.FromImport)):
            if isinstance(node.template, nodes.Const) and isinstance(node.template.value, str):
                pending.append((node.template.value, (file, node.lineno), rendered))
    return problems


def attributes(tree: nodes.Template):
    """(node, name) of every attribute a template names outright: x.name, x["name"], x|attr("name")."""
    for node in tree.find_all((nodes.Getattr, nodes.Getitem, nodes.Filter)):
        if isinstance(node, nodes.Getattr):
            yield node, node.attr
        elif isinstance(node, nodes.Getitem):
            if isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
                yield node, node.arg.value
        elif node.name == "attr" and node.args and isinstance(node.args[0], nodes.Const) \
                and isinstance(node.args[0].value, str):
            yield node, node.args[0].value

