"""Dice: each printed as a cube net (six faces drawn from a face layout, seven glue tabs, cut
and fold lines), packed on the paper."""
from __future__ import annotations

from ...core.yamlfile import locate
from ...layout.component import ComponentFace, PlacedComponent, PlacedKind
from ...layout.dice import DieNet, cube_net, pack_nets
from ...layout.faces import Localised
from ...layout.kit import Kit
from ...layout.placed import place_face
from ...load.icons import declared_icons
from ...render.dice import draw_net, net_die_lines, render_dice
from . import Kind, ShopItem, counted_rows


def die_nets(project, loc: Localised) -> list[DieNet]:
    """Every die of the edition whose face layout exists and has the die's size, laid out once
    per Localised."""
    return list(loc.laid_out("dice", lambda: _lay_out_dice(project, loc)))


def _lay_out_dice(project, loc: Localised) -> list[DieNet]:
    game, nets = loc.game, []
    tab = project.load_sheet("dice")["tab_mm"]
    for component in game.in_edition(loc.edition, "dice"):
        data = component.data
        layout = game.layouts.get("faces", {}).get(data["layout"])
        if layout is None or tuple(layout["size_mm"]) != (data["edge_mm"], data["edge_mm"]):
            continue
        shared = {key: value for key, value in data.items() if isinstance(value, str)}
        shared.update(name=loc.field(component.keypath, data, "name"), game_title=loc.title)
        faces = tuple(place_face(layout, {**shared, **{k: str(v) for k, v in face.items()}}, game.folder,
                                 declared_icons(game.meta) or None)
                      for face in data["faces"])
        edge = data["edge_mm"]
        # glue tabs as the sheet says, but never more than a third of a small die's edge
        nets.append(DieNet(f"die-{component.id}", shared["name"], cube_net(edge, min(tab, edge / 3)),
                           faces, component.count(loc.edition)))
    return nets


def files(kit: Kit) -> list:
    nets = die_nets(kit.project, kit.loc)
    if not nets:
        return []
    sheet = kit.project.load_sheet("dice")
    packed = pack_nets(nets, kit.paper_mm, sheet["margin_mm"], sheet["gap_mm"])
    data, pages, _ = render_dice(packed, kit.paper_mm, sheet, f"{kit.loc.title} — dice",
                                 draft=kit.draft, scale_label=kit.scale_label, palette=kit.palette,
                                 unprintable_mm=kit.unprintable_mm)
    return [kit.artifact("dice", data, pages, name=kit.ink_name("dice"), details={"ink": kit.ink})]


def sheets(project, loc, paper_mm) -> int:
    nets = die_nets(project, loc)
    sheet = project.load_sheet("dice")
    return len(pack_nets(nets, paper_mm, sheet["margin_mm"], sheet["gap_mm"])) if nets else 0


def placed(kit: Kit) -> PlacedKind:
    """Each die with the face layout it names (its edge is the size that layout must have) and,
    when it could be laid out, its six faces, each named at its place in `faces`."""
    game, loc = kit.game, kit.loc
    layouts, dice_file = game.layouts.get("faces", {}), game.files.get("dice")
    nets = {net.key: net for net in die_nets(kit.project, loc)}
    components, uses = [], []
    for component in game.in_edition(loc.edition, "dice"):
        data, net = component.data, nets.get(f"die-{component.id}")
        layout = layouts.get(data["layout"])
        faces = tuple(ComponentFace(face, (*locate(dice_file, ("dice", component.id, "faces", index)),
                                           f"dice.{component.id}.faces.{index}"))
                      for index, face in enumerate(net.faces)) if net else ()
        uses += [(layout, laid.face.values) for laid in faces]
        edge = data["edge_mm"]
        components.append(PlacedComponent(
            "dice", component.id, (*locate(dice_file, ("dice", component.id)), component.keypath),
            net.net.size_mm if net else (edge, edge), net, faces, data["layout"],
            (*locate(dice_file, ("dice", component.id, "layout")), f"{component.keypath}.layout"), layout,
            (edge, edge)))
    return PlacedKind("dice", "die face", tuple(components), tuple(uses))


def contents(loc, phrase) -> list:
    return counted_rows(loc, phrase, "dice", "dice")


def picture(project, loc, component_id: str):
    """A die's net as it prints: its six faces, tabs, cut and fold lines."""
    sheet = project.load_sheet("dice")
    for net in die_nets(project, loc):
        if net.key == f"die-{component_id}":
            return net.net.size_mm, lambda canvas: draw_net(canvas, net, sheet)
    return None


def shop(kit: Kit) -> list:
    """Each die's net whole for a print shop (the trim is the box round the net)."""
    sheet = kit.project.load_sheet("dice")
    items = []
    for net in die_nets(kit.project, kit.loc):
        component_id = net.key.removeprefix("die-")
        items.append(ShopItem(component_id, net.name, net.net.size_mm, net.copies,
                              lambda c, bleed, palette, safe, n=net: draw_net(c, n, sheet, palette, bleed,
                                                                              cut_lines=False),
                              (*locate(kit.game.files["dice"], ("dice", component_id)), f"dice.{component_id}"),
                              net_die_lines(net)))
    return items


KIND = Kind("dice", files, sheets, placed=placed, contents=contents, picture=picture, shop=shop)
