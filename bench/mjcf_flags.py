"""bench/mjcf_flags.py — a model's MJCF text with some of its <option><flag> attributes set
(e.g. {"constraint": "disable"}), for loading the same model into Torsion with options that
MuJoCo's side sets on its mjModel. Only the standard library (xml.etree), so that it imports
under any MuJoCo version's venv.
"""
import xml.etree.ElementTree as ET


def with_flags(path, flags):
    """The MJCF text of the file at path with the <option><flag> attributes `flags` (a dict
    of attribute -> "enable"/"disable") set; includes and asset paths stay relative to the
    file's directory, which the loader is given."""
    root = ET.parse(path).getroot()
    option = root.find("option")
    if option is None:
        option = ET.Element("option")
        root.insert(0, option)
    flag = option.find("flag")
    if flag is None:
        flag = ET.SubElement(option, "flag")
    for name, value in flags.items():
        flag.set(name, value)
    return ET.tostring(root, encoding="unicode")
